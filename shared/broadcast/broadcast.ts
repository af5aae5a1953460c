import { ulid } from 'ulid';
import { GroupCommit } from '../group-commit.ts';
import type { EntityItem } from 'electrodb';
import { db } from '../db/service.ts';
import { putAllRetrying } from '../db/batch-put.ts';
import { withCursor } from '../db/paging.ts';
import { AppError } from '../errors.ts';
import type { TxEntities, TxItem } from '../db/transaction.ts';
import { enqueue } from '../ports/commands.ts';
import { scheduleName, schedulerPort } from '../ports/scheduler.ts';
import { log } from '../log.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import { memberPermissionsOf, permissionGranted } from '../org/permissions.rules.ts';
import { getOrgClock } from '../org/org-clock.ts';
import { localTime } from '../org/business-hours.rules.ts';
import { getOrgPlanState } from '../plan/gate.ts';
import { broadcastCredits, entitlement, licences } from '../plan/entitlements.rules.ts';
import { BROADCAST_CREDITS_PER_LICENCE } from '../plan/catalog.rules.ts';
import { listChats } from '../chat/chat-list.ts';
import { isServiceWindowOpen } from '../chat/chat.rules.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import { markSendUncertain, recordAccepted, releaseDeadSend, sendMessage, type InternalSend, type OutboundCommand } from '../inbox/send.ts';
import { callbackDataFor } from '../inbox/send-reconcile.rules.ts';
import { lookupSentByCallbackData } from '../whatsapp/cloud/graph-client.ts';
import { phoneAccessToken } from '../phone/phone.ts';
import { getMessageItem } from '../message/message.ts';
import { forwardPlan, type ForwardSource } from '../message/forward.rules.ts';
import { getTemplate } from '../template/template.ts';
import { fillTemplate, templateValueProblems } from '../template/template.rules.ts';
import type { TemplateSnapshot } from '../template/template-send.ts';
import type { TemplateValues, TemplateView } from '../template/template.schemas.ts';
import { csvCell } from '../contact/contact.rules.ts';
import type { Actor } from '../auth/actor.ts';
import type { ChatGuard } from '../access/guard.ts';
import { NO_CHAT_ACCESS_MESSAGE } from '../chat/chat-access.rules.ts';
import type { BroadcastEntity, BroadcastRecipientEntity } from './broadcast.entity.ts';
import { lastRateLimitAt } from './broadcast-signals.ts';
import { checkBroadcastUpload, getBroadcastUpload, uploadedMediaFor } from './broadcast-upload.ts';
import {
  MAX_RECIPIENTS,
  type Audience,
  type Broadcast,
  type BroadcastPauseReason,
  type BroadcastPreview,
  type CreateBroadcastInput,
  type CreditUsage,
  type ListRecipientsQuery,
  type PreviewBroadcastInput,
  type Recipient,
  type RecipientState,
  type SkipReason,
} from './broadcast.schemas.ts';
import { audienceParts, countSkips, creditMonth, fillTemplateValues, fillVariables, inQuietHours, isOptedOut, msUntilQuietEnds, NumberPacer, recipientId } from './broadcast.rules.ts';

/**
 * Broadcasts (issue 16 part B; spec §2 /broadcast, §6 bulk_message, §9 credits).
 *
 * - create: the audience (chats by hand, a chat-list filter read through listChats as the creator
 *   sees it, or CSV rows with variables) is resolved once into BroadcastRecipient rows; opted-out
 *   customers and Cloud API chats outside the 24-hour window (a template would be needed) are stored
 *   `skipped` with the reason; a broadcast needing more credits than the month has left is refused.
 * - the engine runs as steps on the `broadcasts` command queue (`{ org_id, broadcast_id, seq }`), and
 *   wake-ups (scheduled start, quiet hours end) come through the scheduler port onto the same queue.
 *   A step sends for up to `budgetMs`, paced per number (NumberPacer), then hands over to step seq+1.
 * - exactly once per recipient: a recipient is claimed by one transaction (pending -> sending, the
 *   month's credit taken with `used < limit`, and the message key `msg_unique_id` / `msg_timestamp`
 *   fixed); then the message is stored through the inbox's sendMessage under that key, and the
 *   recipient becomes `sent` (the job's counter in the same transaction). A process killed in between
 *   leaves a `sending` row: the next step finds it first and looks the message up by its key: stored
 *   -> only finish the recipient (and queue the message again if it never reached the outbound
 *   consumer); not stored -> store it now. The Graph call itself is the outbound consumer's, deduped by
 *   its own claim (`send_started_at`, shared/inbox/send.ts deliverMessage).
 * - before a run completes, reconcileSends settles every message still without a wamid; one whose
 *   Graph call was cut by a crash is looked up on the Graph side and recorded or sent once (the
 *   lookup exists on the local stand-in only; with Meta it stays "may not have been sent").
 * - pace: the next page of pending recipients is read while the current one sends (pendingAfter),
 *   up to MAX_IN_FLIGHT sends at once; the pacer's schedule (NumberPacer: send n due at first +
 *   n × pace, lateness caught up within Meta's per-number limit), not the slots or each send's
 *   latency, sets the pace. A slot is free once the message is stored and queued (finishes
 *   group-commit in the background); the job and rate-limit reads never hold the loop; the chats of
 *   the next CHAT_BATCH recipients are read in one BatchGet for sendMessage's first attempt.
 * Times epoch **ms**; TTLs epoch **seconds**.
 */

type JobRow = EntityItem<typeof BroadcastEntity>;
type RecipientRow = EntityItem<typeof BroadcastRecipientEntity>;

/** Broadcasts and their recipients are kept 180 days (TTL, seconds). */
const TTL_SECONDS = 180 * 24 * 3600;
/** Refs of sent messages (statuses, replies) are kept 30 days. */
const REF_TTL_SECONDS = 30 * 24 * 3600;
/** Recipients read per Query of the engine. */
const PAGE = 100;
/** The job's status is read again at most this often while sending (pause/cancel take effect within it). */
const JOB_REFRESH_MS = 1000;
/** The engine reads the chats of the next this many recipients in one BatchGet, as the loop reaches them. */
const CHAT_BATCH = 20;
/** A chat row read ahead is used for its send this long at most (older: read again). */
const PAGE_CHAT_FRESH_MS = 30_000;
/** A number's rate-limit row is read again at most this often. */
const LIMIT_REFRESH_MS = 1000;
/** Sends of one step in flight at once: the pace comes from the slots, not from each send's latency (BROADCAST_MAX_IN_FLIGHT overrides). */
const MAX_IN_FLIGHT = Number(process.env.BROADCAST_MAX_IN_FLIGHT) || 48;

const RESTRICTED = 'This page is restricted for non-admin members. Contact an administrator if you think this is a mistake.';
const notFound = () => new AppError('broadcast.not_found', 'That broadcast does not exist.', { status: 404 });

/** Spec §6: /broadcast follows member_permissions.bulk_message (admins always). @throws AppError 403 broadcast.forbidden */
export async function assertBroadcastAccess(actor: Actor): Promise<void> {
  if (actor.role === 'admin') return;
  const prefs = await getOrgPreferences(actor.org_id);
  if (!permissionGranted(memberPermissionsOf(prefs), 'bulk_message')) throw new AppError('broadcast.forbidden', RESTRICTED, { status: 403 });
}

// ---- credits --------------------------------------------------------------------------------

/** Credits of the month: 3,000 per licence (spec §9, entitlements.rules.ts broadcastCredits) and what was used. */
export async function creditUsageOf(orgId: string, now = Date.now()): Promise<CreditUsage> {
  const plan = await getOrgPlanState(orgId);
  const month = creditMonth(now);
  const row = (await db().entities.broadcastUsage.get({ org_id: orgId, month }).go()).data;
  const limit = broadcastCredits(plan, now);
  const used = row?.used ?? 0;
  return { month, limit, used, remaining: Math.max(0, limit - used), licences: licences(plan), per_licence: BROADCAST_CREDITS_PER_LICENCE };
}

/** GET /broadcasts/credits. @throws AppError 403 broadcast.forbidden */
export async function getCreditUsage(actor: Actor): Promise<CreditUsage> {
  await assertBroadcastAccess(actor);
  return creditUsageOf(actor.org_id);
}

// ---- audience ----------------------------------------------------------------------------------

/** One resolved recipient before it is stored. */
interface Resolved {
  chat_id: string | null;
  phone_id?: string;
  connection_type?: 'wa_cloud' | 'wa_web';
  name: string | null;
  phone: string | null;
  vars: Record<string, string>;
  skip_reason: SkipReason | null;
  /** 'template' when the broadcast's template goes to this recipient */
  via?: 'text' | 'template';
}

type ChatLike = Chat & { phone_id: string; label_ids?: string[] | null; last_customer_message_at?: Record<string, number> | null };

/** Chats by id (BatchGet, 100 a call). */
async function chatsById(orgId: string, ids: string[]): Promise<Map<string, ChatLike>> {
  const out = new Map<string, ChatLike>();
  for (let i = 0; i < ids.length; i += 1000) {
    const got = await db()
      .entities.chat.get(ids.slice(i, i + 1000).map((chat_id) => ({ org_id: orgId, chat_id })))
      .go({ concurrency: 4 });
    for (const c of got.data as unknown as ChatLike[]) out.set(c.chat_id, c);
  }
  return out;
}

/**
 * A contact-filter audience: the contacts of a /contacts filter (listContactBook, as the actor sees
 * them: paged, up to MAX_RECIPIENTS), each mapped to its first number's chat that the actor may open
 * (on `phone_id` when given). A contact without one keeps a placeholder chat id that resolves to
 * `no_chat`. Masked viewers get sealed contact ids; they are opened here (never shown).
 */
async function contactAudience(actor: Actor, audience: Extract<Audience, { kind: 'contacts' }>) {
  const { listContactBook, getMany } = await import('../contact/contact.ts');
  const { openContactId } = await import('../contact/contact-id.ts');
  const { chatGuard } = await import('../access/guard.ts');
  const orgId = actor.org_id;
  const guard = await chatGuard(actor);
  const views: Array<{ id: string; name: string | null }> = [];
  let cursor: string | null = null;
  do {
    const page: { contacts: Array<{ contact_id: string; display_name: string | null }>; cursor: string | null } = await listContactBook(actor, { ...audience.filter, limit: 200, ...(cursor ? { cursor } : {}) });
    for (const v of page.contacts) {
      const id = guard.masks ? openContactId(orgId, v.contact_id) : v.contact_id;
      if (id && views.length < MAX_RECIPIENTS) views.push({ id, name: v.display_name });
    }
    cursor = views.length < MAX_RECIPIENTS ? page.cursor : null;
  } while (cursor);
  const rows = new Map((await getMany(orgId, views.map((v) => v.id))).map((c) => [c.contact_id, c]));
  const numbersOf = (id: string): string[] => {
    const c = rows.get(id) as { numbers?: string[] | null } | undefined;
    return c?.numbers?.length ? c.numbers : [id];
  };
  const found = await chatsById(orgId, [...new Set(views.flatMap((v) => numbersOf(v.id).map((n) => `${n}@c.us`)))]);
  const visible = await guard.visibleChatIds(found.keys());
  const chats = new Map([...found].filter(([id, c]) => visible.has(id) && (!audience.phone_id || c.phone_id === audience.phone_id)));
  const wanted = views.map((v) => {
    const chatId = numbersOf(v.id)
      .map((n) => `${n}@c.us`)
      .find((id) => chats.has(id));
    return { chat_id: chatId ?? `contact:${v.id}`, vars: {}, phone: null, name: chatId ? null : v.name };
  });
  return { wanted, chats };
}

/**
 * Resolve an audience to recipients with their skip reasons (nothing stored).
 * - chats: as given (the HTTP layer's guard already refused chats the actor may not see);
 * - filter: the chat list's own filters (labels, assignee, number, type, state, unread), read through
 *   listChats as the actor sees it, up to MAX_RECIPIENTS;
 * - csv: `<phone>@c.us` chats of the org; a number without a chat the actor can see is skipped (no_chat).
 */
async function resolveAudience(actor: Actor, audience: Audience, keyword: string, now: number): Promise<Resolved[]> {
  const orgId = actor.org_id;
  let wanted: Array<{ chat_id: string; vars: Record<string, string>; phone: string | null; name?: string | null }>;
  let chats: Map<string, ChatLike>;
  if (audience.kind === 'filter') {
    chats = new Map();
    let cursor: string | null = null;
    do {
      const page: { chats: Chat[]; cursor: string | null } = await listChats(actor, { ...audience.filter, limit: 1000, ...(cursor ? { cursor } : {}) });
      for (const c of page.chats) if (chats.size < MAX_RECIPIENTS) chats.set(c.chat_id, c as ChatLike);
      cursor = chats.size < MAX_RECIPIENTS ? page.cursor : null;
    } while (cursor);
    // listChats masks and trims rows; read the stored rows (window, labels, phone_id)
    chats = await chatsById(orgId, [...chats.keys()]);
    wanted = [...chats.keys()].map((chat_id) => ({ chat_id, vars: {}, phone: null }));
  } else if (audience.kind === 'contacts') {
    ({ wanted, chats } = await contactAudience(actor, audience));
  } else if (audience.kind === 'chats') {
    wanted = audience.chat_ids.map((chat_id) => ({ chat_id, vars: {}, phone: null }));
    chats = await chatsById(orgId, [...new Set(audience.chat_ids)]);
  } else {
    wanted = audience.rows.map((r) => ({ chat_id: `${r.phone}@c.us`, vars: r.vars, phone: r.phone }));
    const found = await chatsById(orgId, [...new Set(wanted.map((w) => w.chat_id))]);
    const { chatGuard } = await import('../access/guard.ts');
    const visible = await (await chatGuard(actor)).visibleChatIds(found.keys());
    chats = new Map([...found].filter(([id]) => visible.has(id)));
  }
  const labels = new Map((await db().entities.chatLabel.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data.map((l) => [l.label_id, l.name]));
  const phones = new Map((await db().entities.phone.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data.map((p) => [p.phone_id, p.connection_type]));
  const seen = new Set<string>();
  return wanted.map((w) => {
    const c = chats.get(w.chat_id);
    const base = { chat_id: c ? w.chat_id : null, name: c?.chat_name ?? w.name ?? null, phone: w.phone ?? (c ? w.chat_id.split('@')[0]! : null), vars: w.vars };
    if (!c) return { ...base, skip_reason: 'no_chat' as const };
    const kind = phones.get(c.phone_id) ?? 'wa_cloud';
    const r: Resolved = { ...base, phone_id: c.phone_id, connection_type: kind, skip_reason: null };
    if (seen.has(w.chat_id)) return { ...r, skip_reason: 'duplicate' };
    seen.add(w.chat_id);
    const labelNames = (c.label_ids ?? []).map((id) => labels.get(id) ?? '');
    if (isOptedOut(c.latest_message, keyword, labelNames)) return { ...r, skip_reason: 'opt_out' };
    if (kind === 'wa_cloud' && !isServiceWindowOpen(c, c.org_phone, now)) return { ...r, skip_reason: 'no_template' };
    return r;
  });
}

/** The text one recipient gets: the content's variables filled (CSV columns, then name and phone). */
const textFor = (body: string, r: { name?: string | null; phone?: string | null; vars?: unknown }): string =>
  fillVariables(body, { name: r.name ?? '', phone: r.phone ?? '', ...((r.vars as Record<string, string> | undefined) ?? {}) });

/** The variables of one recipient (CSV columns, then name and phone). */
const varsOf = (r: { name?: string | null; phone?: string | null; vars?: unknown }): Record<string, string> => ({ name: r.name ?? '', phone: r.phone ?? '', ...((r.vars as Record<string, string> | undefined) ?? {}) });

/** A broadcast template as one recipient gets it: the snapshot the outbound consumer builds Meta's body from, and its text. */
function templateFor(t: TemplateView, values: TemplateValues, r: { name?: string | null; phone?: string | null; vars?: unknown }): { snapshot: TemplateSnapshot; text: string } {
  const filled = fillTemplateValues(values, varsOf(r));
  const snapshot: TemplateSnapshot = { name: t.name, language: t.language, parameter_format: t.parameter_format, category: t.category, components: t.components, values: filled };
  return { snapshot, text: fillTemplate(t, filled).text.slice(0, 4096) };
}

const contentError = (field: string, reason: string, code = 'validation.failed') => new AppError(code, `${field}: ${reason}`, { details: [{ field, reason }] });

/**
 * Decide who gets the template (issue 16 item 2 "Content"; the rule table is on BroadcastContent) and
 * check it for every number and recipient it goes to, so a broadcast is refused up front rather than
 * failing recipient by recipient: the number must be a Cloud API number with the template synced and
 * APPROVED, and every variable filled for each recipient (values with `{{name}}` or a CSV column that
 * is empty for someone are named with that recipient's row).
 * @returns the templates by phone_id (empty for text-only content); `resolved` rows get `via`
 * @throws AppError 400 template.not_cloud (field content.template), 400 validation.failed
 *   (content.template.name / content.template.values.<key> / content.template)
 */
async function applyTemplate(orgId: string, content: PreviewBroadcastInput['content'], resolved: Resolved[]): Promise<Map<string, TemplateView>> {
  const templates = new Map<string, TemplateView>();
  const ref = content.template;
  for (const r of resolved) {
    if (r.skip_reason && r.skip_reason !== 'no_template') continue;
    if (!ref || (content.body && r.skip_reason !== 'no_template')) {
      if (!r.skip_reason) r.via = 'text';
      continue;
    }
    if (r.connection_type === 'wa_web') {
      throw new AppError('template.not_cloud', `Templates are a WhatsApp Cloud API feature; ${r.name ?? r.phone ?? r.chat_id} is answered from a WhatsApp Web number. Send text to WhatsApp Web numbers, or leave them out.`, {
        details: [{ field: 'content.template', reason: 'is not available on WhatsApp Web numbers' }],
      });
    }
    const phoneId = r.phone_id!;
    let t = templates.get(phoneId);
    if (!t) {
      t = await getTemplate(orgId, phoneId, ref.name, ref.language);
      if (!t) throw contentError('content.template.name', `is not a synced template of number ${phoneId} in that language`);
      templates.set(phoneId, t);
    }
    const problems = templateValueProblems(t, fillTemplateValues(ref.values, varsOf(r)));
    if (problems.length) {
      const who = r.phone ?? r.name ?? r.chat_id ?? '';
      const field = `content.template.${problems[0]!.field}`;
      throw new AppError('validation.failed', `${field}: ${problems[0]!.reason} (recipient ${who})`, { details: problems.map((p) => ({ field: `content.template.${p.field}`, reason: `${p.reason} (recipient ${who})` })) });
    }
    r.skip_reason = null;
    r.via = 'template';
  }
  return templates;
}

/**
 * The broadcast's file: a media-library file of a chat the actor may open (the guard), and one
 * WhatsApp can send (forward.rules.ts forwardPlan: stored, a sendable type, within Meta's limits);
 * or a file uploaded from the member's computer (broadcast-upload.ts checkBroadcastUpload).
 * @throws AppError 400 validation.failed `content.media.chat_id` / `content.media.unique_id` / `content.media` / `content.media.upload_id`
 */
async function checkMedia(actor: Actor, m: NonNullable<PreviewBroadcastInput['content']['media']>, now: number): Promise<void> {
  if ('upload_id' in m) return void (await checkBroadcastUpload(actor.org_id, m.upload_id));
  const { chatGuard } = await import('../access/guard.ts');
  await (await chatGuard(actor)).requireChat(m.chat_id).catch((e: unknown) => {
    if (e instanceof AppError && (e.status === 404 || e.status === 403)) throw contentError('content.media.chat_id', 'is not a chat you can open');
    throw e;
  });
  const src = await getMessageItem(actor.org_id, m.chat_id, m.unique_id).catch(() => null);
  if (!src?.media) throw contentError('content.media.unique_id', 'is not a file of that chat');
  const plan = forwardPlan(src as unknown as ForwardSource, '', now);
  if (plan.kind !== 'media') throw contentError('content.media', plan.kind === 'refused' ? plan.reason : 'is not a file');
}

/** Shared by preview and create: the resolved recipients, their counts, the templates by number and the month's credits. */
async function plan(actor: Actor, input: PreviewBroadcastInput, now: number) {
  await assertBroadcastAccess(actor);
  const resolved = await resolveAudience(actor, input.audience, input.options.opt_out_keyword, now);
  const needsTemplate = resolved.filter((r) => r.skip_reason === 'no_template').length;
  const templates = await applyTemplate(actor.org_id, input.content, resolved);
  if (input.content.media) await checkMedia(actor, input.content.media, now);
  const skips = countSkips(resolved.map((r) => r.skip_reason));
  const toSend = resolved.length - skips.opt_out - skips.no_template - skips.other;
  const credits = await creditUsageOf(actor.org_id, now);
  return { resolved, skips, toSend, credits, templates, needsTemplate };
}

/**
 * POST /broadcasts/preview: who gets what (the first 200 rows with their text filled), how many are
 * skipped and why (opt-out; Cloud API chats outside the 24-hour window need a template), and the
 * month's credits. Nothing is stored. @throws AppError 403 broadcast.forbidden
 */
export async function previewBroadcast(actor: Actor, guard: ChatGuard, input: PreviewBroadcastInput, now = Date.now()): Promise<BroadcastPreview> {
  const { resolved, skips, toSend, credits, templates, needsTemplate } = await plan(actor, input, now);
  const textOf = (r: Resolved): string | null => {
    const shown = { ...r, phone: guard.mask(r.phone) };
    if (r.via === 'template') return templateFor(templates.get(r.phone_id!)!, input.content.template!.values, shown).text;
    return r.via === 'text' ? textFor(input.content.body ?? '', shown) : null;
  };
  return {
    total: resolved.length,
    to_send: toSend,
    skipped_opt_out: skips.opt_out,
    needs_template: needsTemplate,
    via_template: resolved.filter((r) => r.via === 'template').length,
    skipped_other: skips.other,
    credits: { month: credits.month, limit: credits.limit, used: credits.used, remaining: credits.remaining },
    rows: resolved.slice(0, 200).map((r) => ({ chat_id: r.chat_id, name: r.name, phone: guard.mask(r.phone), text: textOf(r), via: r.via ?? null, skip_reason: r.skip_reason })),
  };
}

/** Put recipient rows in batches, retrying what DynamoDB left unprocessed (shared/db/batch-put.ts). */
const putRecipients = (rows: RecipientRow[]): Promise<void> => putAllRetrying(db().entities.broadcastRecipient as never, rows, (r) => String((r as { rid: string }).rid), 'broadcast recipient(s)');

/** How long the step that turns audience parts into recipient rows holds its lease (renewed every part). */
const PREPARE_LEASE_MS = 120_000;

/**
 * Turn a broadcast's audience parts (createBroadcast) into its recipient rows, once, before anyone
 * is claimed. The step that does it holds a lease on the job (`prepare_token`, `prepare_lease`,
 * conditional writes), renewed before each part and checked before `prepared_at` is set, so two
 * steps (a redelivered one, a resumed chain, the scheduled start) never write rows at once: a put
 * after a claim would turn a `sending` recipient back into `pending`. A lease of a step that died
 * is taken over once stale. The parts are deleted afterwards (best effort; TTL otherwise).
 * @returns 'ready' when the rows are stored; otherwise the epoch ms to look again (another step holds the lease)
 * @throws infrastructure errors (the queue retries the step)
 */
async function prepareAudience(job: JobRow, now: () => number): Promise<'ready' | number> {
  const key = { org_id: job.org_id, broadcast_id: job.broadcast_id };
  const token = ulid();
  const { isConflictError } = await import('../db/retry.ts');
  const lease = async (first: boolean): Promise<boolean> => {
    try {
      await db()
        .entities.broadcast.patch(key)
        .set({ prepare_lease: now() + PREPARE_LEASE_MS, prepare_token: token })
        .where((a, { notExists, lt, eq }) => (first ? `${notExists(a.prepared_at)} AND (${notExists(a.prepare_lease)} OR ${lt(a.prepare_lease, now())})` : `${notExists(a.prepared_at)} AND ${eq(a.prepare_token, token)}`))
        .go();
      return true;
    } catch (e) {
      if (isConflictError(e)) return false;
      throw e;
    }
  };
  if (!(await lease(true))) {
    const cur = await jobOf(job.org_id, job.broadcast_id);
    if (!cur || cur.prepared_at != null) return 'ready';
    return Math.max(now() + 1000, cur.prepare_lease ?? 0);
  }
  const parts: number[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await db().entities.broadcastAudience.query.byBroadcast(key).go({ attributes: ['part'], pages: 1, ...(cursor ? { cursor } : {}) });
    parts.push(...(page.data as Array<{ part: number }>).map((p) => p.part));
    cursor = page.cursor;
  } while (cursor);
  for (const part of parts) {
    if (!(await lease(false))) return now() + 1000; // taken over: that step finishes
    const got = (await db().entities.broadcastAudience.get({ ...key, part }).go()).data;
    if (!got) continue;
    await putRecipients((got.rows as Array<Record<string, unknown>>).map((r) => ({ ...r, org_id: job.org_id, broadcast_id: job.broadcast_id, expires_at: job.expires_at }) as unknown as RecipientRow));
  }
  try {
    await db()
      .entities.broadcast.patch(key)
      .set({ prepared_at: now() })
      .remove(['prepare_lease', 'prepare_token'])
      .where((a, { eq }) => eq(a.prepare_token, token))
      .go();
  } catch (e) {
    if (isConflictError(e)) return now() + 1000;
    throw e;
  }
  await db().entities.broadcastAudience.delete(parts.map((part) => ({ ...key, part }))).go().catch((e: unknown) => log('warn', 'broadcast.parts_not_deleted', { ...key, error: String(e) }));
  return 'ready';
}

/** Start (or arm) the engine of a broadcast at step `seq`: now on the queue, or at `at` through the scheduler. */
async function wake(orgId: string, broadcastId: string, seq: number, at: number | null): Promise<void> {
  const body = { org_id: orgId, broadcast_id: broadcastId, seq };
  if (at == null) return enqueue('broadcasts', body);
  await (await schedulerPort()).schedule({ name: scheduleName('broadcast', orgId, broadcastId), at, queue: 'broadcasts', body: JSON.stringify(body) });
}

/**
 * POST /broadcasts: store a broadcast and its recipients and start it now, or at `send_at`.
 * @throws AppError 403 broadcast.forbidden; 400 broadcast.no_recipients when everyone is skipped;
 *   400 broadcast.credits_exceeded when it needs more credits than the month has left (spec §9)
 */
export async function createBroadcast(actor: Actor, input: CreateBroadcastInput, now = Date.now()): Promise<Broadcast> {
  const { resolved, skips, toSend, credits } = await plan(actor, input, now);
  if (toSend === 0) {
    throw new AppError('broadcast.no_recipients', 'Nobody in this audience can receive this broadcast: every recipient was skipped (opted out, outside the 24-hour window, or no chat).', { details: [{ field: 'audience', reason: 'no recipient to send to' }] });
  }
  if (toSend > credits.remaining) {
    throw new AppError('broadcast.credits_exceeded', `This broadcast needs ${toSend} credits but only ${credits.remaining} of this month's ${credits.limit} are left. Remove recipients or wait until next month.`, {
      details: [{ field: 'audience', reason: `needs ${toSend} credits, ${credits.remaining} left` }],
    });
  }
  const broadcast_id = `bc_${ulid(now)}`;
  const expires_at = Math.floor(now / 1000) + TTL_SECONDS;
  // the recipients go into a few audience parts (a write per ~300 KB, not per recipient): the
  // request's work stays within the gateway's time however large the audience; the engine's first
  // step turns the parts into recipient rows before it claims anyone (prepareAudience)
  const parts = audienceParts(
    resolved.map((r, i) => ({
      rid: recipientId(i),
      state: r.skip_reason ? 'skipped' : 'pending',
      ...(r.chat_id ? { chat_id: r.chat_id } : {}),
      ...(r.phone_id ? { phone_id: r.phone_id, connection_type: r.connection_type } : {}),
      ...(r.name ? { name: r.name } : {}),
      ...(r.phone ? { phone: r.phone } : {}),
      ...(Object.keys(r.vars).length ? { vars: r.vars } : {}),
      ...(r.skip_reason ? { skip_reason: r.skip_reason } : {}),
      ...(r.via === 'template' ? { via: 'template' as const } : {}),
    })),
  );
  await putAllRetrying(db().entities.broadcastAudience as never, parts.map((rows, part) => ({ org_id: actor.org_id, broadcast_id, part, rows, expires_at })), (r) => String((r as { part: number }).part), 'audience part(s)');
  const later = input.send_at != null && input.send_at > now + 1000;
  const row = (
    await db()
      .entities.broadcast.create({
        org_id: actor.org_id,
        broadcast_id,
        name: input.name,
        status: later ? 'scheduled' : 'running',
        content: input.content,
        audience_kind: input.audience.kind,
        pace_ms: input.options.pace_ms,
        quiet_hours: input.options.quiet_hours,
        opt_out_keyword: input.options.opt_out_keyword,
        ...(later ? { send_at: input.send_at! } : { started_at: now }),
        created_by: actor.email.toLowerCase(),
        created_at: now,
        step: 0,
        total: resolved.length,
        skipped_opt_out: skips.opt_out,
        skipped_no_template: skips.no_template,
        skipped_other: skips.other,
        audience_parts: parts.length,
        expires_at,
      })
      .go()
  ).data as JobRow;
  // step 0 now (it prepares the recipients; a scheduled one then waits for its start, armed here too)
  if (later) await wake(actor.org_id, broadcast_id, 0, input.send_at!);
  await wake(actor.org_id, broadcast_id, 0, null);
  log('info', 'broadcast.created', { org_id: actor.org_id, broadcast_id, total: resolved.length, to_send: toSend, scheduled: later });
  return toBroadcast(row);
}

/** The wire shape of a stored broadcast. */
export function toBroadcast(row: JobRow): Broadcast {
  const skipped = row.skipped_opt_out + row.skipped_no_template + row.skipped_other;
  return {
    broadcast_id: row.broadcast_id,
    name: row.name,
    status: row.status,
    content: row.content as Broadcast['content'],
    audience_kind: row.audience_kind,
    pace_ms: row.pace_ms,
    quiet_hours: (row.quiet_hours as Broadcast['quiet_hours']) ?? null,
    opt_out_keyword: row.opt_out_keyword,
    send_at: row.send_at ?? null,
    created_by: row.created_by,
    created_at: row.created_at,
    started_at: row.started_at ?? null,
    finished_at: row.finished_at ?? null,
    waiting_until: row.waiting_until ?? null,
    pause_reason: row.status === 'paused' ? (row.pause_reason ?? null) : null,
    stats: {
      total: row.total,
      pending: Math.max(0, row.total - skipped - row.sent_count - row.failed_count),
      sent: row.sent_count,
      delivered: row.delivered_count,
      read: row.read_count,
      failed: row.failed_count,
      replied: row.replied_count,
      skipped,
      skipped_opt_out: row.skipped_opt_out,
      skipped_no_template: row.skipped_no_template,
      skipped_other: row.skipped_other,
    },
  };
}

async function jobOf(orgId: string, broadcastId: string): Promise<JobRow | null> {
  return (await db().entities.broadcast.get({ org_id: orgId, broadcast_id: broadcastId }).go()).data as JobRow | null;
}

/** GET /broadcasts/{broadcast_id}. @throws AppError 403 broadcast.forbidden, 404 broadcast.not_found */
export async function getBroadcast(actor: Actor, broadcastId: string): Promise<Broadcast> {
  await assertBroadcastAccess(actor);
  const row = await jobOf(actor.org_id, broadcastId);
  if (!row) throw notFound();
  return toBroadcast(row);
}

/** GET /broadcasts: the org's broadcasts, newest first, paged. @throws AppError 403 broadcast.forbidden; 400 query.cursor */
export async function listBroadcasts(actor: Actor, q: { limit: number; cursor?: string | undefined }): Promise<{ broadcasts: Broadcast[]; cursor: string | null }> {
  await assertBroadcastAccess(actor);
  const page = await withCursor(q.cursor, () =>
    db()
      .entities.broadcast.query.byId({ org_id: actor.org_id })
      .go({ order: 'desc', limit: q.limit, pages: 1, ...(q.cursor ? { cursor: q.cursor } : {}) }),
  );
  return { broadcasts: (page.data as JobRow[]).map(toBroadcast), cursor: page.cursor ?? null };
}

function toRecipient(r: RecipientRow): Recipient {
  return {
    rid: r.rid,
    chat_id: r.chat_id ?? null,
    name: r.name ?? null,
    phone: r.phone ?? null,
    state: r.state,
    skip_reason: r.skip_reason ?? null,
    ack: r.ack ?? null,
    error: r.error ?? null,
    sent_at: r.sent_at ?? null,
    replied_at: r.replied_at ?? null,
  };
}

/**
 * Recipients as `guard`'s viewer may see them (spec §6): a chat the viewer may not open keeps only its
 * state (no name, number or chat id); numbers are masked when mask_phone_numbers applies.
 */
async function viewRecipients(guard: ChatGuard, rows: RecipientRow[]): Promise<Recipient[]> {
  const visible = await guard.visibleChatIds(rows.map((r) => r.chat_id).filter((c): c is string => !!c));
  return rows.map((r) => {
    const w = toRecipient(r);
    if (r.chat_id && !visible.has(r.chat_id)) return { ...w, chat_id: null, name: null, phone: null };
    return { ...w, phone: guard.mask(w.phone), chat_id: w.chat_id };
  });
}

/** Does a recipient match a log filter (filters by state are one Query; delivered/read/replied filter the sent ones). */
const matches = (filter: ListRecipientsQuery['filter'], r: RecipientRow): boolean =>
  filter === 'delivered' ? (r.ack ?? 0) >= 2 : filter === 'read' ? (r.ack ?? 0) >= 3 : filter === 'replied' ? r.replied_at != null : true;

/**
 * GET /broadcasts/{id}/recipients?filter&cursor: the per-recipient log. States are one Query on the
 * byState index; delivered / read are the `sent` ones filtered by ack, replied by replied_at.
 * @throws AppError 403, 404; 400 query.cursor (a cursor this list did not hand out)
 */
export async function listRecipients(actor: Actor, guard: ChatGuard, broadcastId: string, q: ListRecipientsQuery): Promise<{ recipients: Recipient[]; cursor: string | null }> {
  await assertBroadcastAccess(actor);
  if (!(await jobOf(actor.org_id, broadcastId))) throw notFound();
  const opts = { limit: q.limit, pages: 1 as const, ...(q.cursor ? { cursor: q.cursor } : {}) };
  const key = { org_id: actor.org_id, broadcast_id: broadcastId };
  const stateOf: Partial<Record<ListRecipientsQuery['filter'], RecipientState>> = { pending: 'pending', sent: 'sent', delivered: 'sent', read: 'sent', replied: 'sent', failed: 'failed', skipped: 'skipped' };
  const state = stateOf[q.filter];
  const page = await withCursor(q.cursor, () =>
    state ? db().entities.broadcastRecipient.query.byState({ ...key, state }).go(opts) : db().entities.broadcastRecipient.query.byBroadcast(key).go(opts),
  );
  return { recipients: await viewRecipients(guard, (page.data as RecipientRow[]).filter((r) => matches(q.filter, r))), cursor: page.cursor ?? null };
}

/**
 * GET /broadcasts/{id}/recipients.csv: every recipient with state, reason and times (ISO, UTC);
 * cells are formula-injection safe (contact.rules.ts csvCell). @throws AppError 403, 404
 */
export async function exportRecipientsCsv(actor: Actor, guard: ChatGuard, broadcastId: string): Promise<string> {
  await assertBroadcastAccess(actor);
  if (!(await jobOf(actor.org_id, broadcastId))) throw notFound();
  const lines = [['recipient', 'name', 'phone', 'chat_id', 'state', 'skip_reason', 'delivery', 'error', 'sent_at', 'replied_at'].join(',')];
  const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : '');
  const ackWord = (a: number | undefined) => (a === 3 || a === 4 ? 'read' : a === 2 ? 'delivered' : a === 1 ? 'sent' : a === -1 ? 'failed' : '');
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await db()
      .entities.broadcastRecipient.query.byBroadcast({ org_id: actor.org_id, broadcast_id: broadcastId })
      .go({ limit: 1000, pages: 1, ...(cursor ? { cursor } : {}) });
    for (const r of await viewRecipients(guard, page.data as RecipientRow[])) {
      lines.push([r.rid, r.name ?? '', r.phone ?? '', r.chat_id ?? '', r.state, r.skip_reason ?? '', ackWord(r.ack ?? undefined), r.error ?? '', iso(r.sent_at ?? undefined), iso(r.replied_at ?? undefined)].map((v) => csvCell(String(v))).join(','));
    }
    cursor = page.cursor;
  } while (cursor);
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Why the engine pauses a broadcast that found no credit left (issue 42): after the subscription or
 * the free trial ended the month's credits read 0 (entitlements.rules.ts broadcastCredits), and the
 * broadcast says so rather than "out of credits". The org's plan state is the one the step's credit
 * count was read with (5 s cache): no extra read.
 * @param now epoch ms
 */
export async function pauseReasonOf(orgId: string, now: number): Promise<BroadcastPauseReason> {
  const d = entitlement(await getOrgPlanState(orgId), now, 'write');
  return !d.allowed && (d.code === 'subscription_ended' || d.code === 'trial_ended') ? d.code : 'out_of_credits';
}

/**
 * POST /broadcasts/{id}/actions `{ action }`: pause (the running step stops within a second), resume
 * (a new engine chain at step + 1; the old one stops at its next check), cancel (recipients not yet
 * claimed stay pending and are never sent).
 * @throws AppError 403, 404, 409 broadcast.invalid_action when the status does not allow it
 */
export async function controlBroadcast(actor: Actor, broadcastId: string, action: 'pause' | 'resume' | 'cancel', now = Date.now()): Promise<Broadcast> {
  await assertBroadcastAccess(actor);
  const row = await jobOf(actor.org_id, broadcastId);
  if (!row) throw notFound();
  const allowed: Record<typeof action, readonly string[]> = { pause: ['running', 'scheduled'], resume: ['paused'], cancel: ['running', 'paused', 'scheduled'] };
  const refuse = () => new AppError('broadcast.invalid_action', `A ${row.status} broadcast cannot be ${action === 'pause' ? 'paused' : action === 'resume' ? 'resumed' : 'cancelled'}.`, { status: 409 });
  if (!allowed[action].includes(row.status)) throw refuse();
  const key = { org_id: actor.org_id, broadcast_id: broadcastId };
  const next = action === 'pause' ? 'paused' : action === 'cancel' ? 'cancelled' : row.started_at ? 'running' : row.send_at && row.send_at > now ? 'scheduled' : 'running';
  const seq = row.step + 1;
  try {
    await db()
      .entities.broadcast.patch(key)
      .set({ status: next, step: seq, ...(action === 'cancel' ? { finished_at: now } : {}), ...(next === 'running' && !row.started_at ? { started_at: now } : {}) })
      // a person paused, resumed or cancelled it: the engine's reason no longer applies
      .remove(['pause_reason'])
      .where((a, { eq }) => `${eq(a.status, row.status)} AND ${eq(a.step, row.step)}`)
      .go();
  } catch (e) {
    if ((await import('../db/retry.ts')).isConflictError(e)) throw new AppError('broadcast.changed', 'This broadcast changed meanwhile. Please look again.', { status: 409 });
    throw e;
  }
  if (action === 'resume') await wake(actor.org_id, broadcastId, seq, next === 'scheduled' ? row.send_at! : null);
  if (action !== 'resume' && row.status === 'scheduled') await (await schedulerPort()).cancel(scheduleName('broadcast', actor.org_id, broadcastId));
  return toBroadcast((await jobOf(actor.org_id, broadcastId))!);
}

// ---- the engine (the broadcasts consumer) --------------------------------------------------------

/** One message of the broadcasts queue: run step `seq` of a broadcast. */
export interface BroadcastStepCommand {
  org_id: string;
  broadcast_id: string;
  seq: number;
}

/** What the engine is given: a clock, a sleep and randomness (the bench and tests inject their own) and its time budget per step. */
export interface EngineDeps {
  now(): number;
  sleep(ms: number): Promise<void>;
  rand(): number;
  /** ms a step sends before it hands over to the next step (a Lambda's time limit) */
  budgetMs: number;
  /** a synced template of a number (cached by the step: one read per number and step) */
  templateOf?(orgId: string, phoneId: string, name: string, language: string): Promise<TemplateView | undefined>;
  /** the broadcast file's source message (cached by the step: one read per step) */
  mediaOf?(orgId: string, chatId: string, uniqueId: string): Promise<ForwardSource | null>;
  /** test hook of the crash tests: awaited after a recipient is claimed and after its message is stored (a promise that never settles = the process died there) */
  crashPoint?: (point: 'claimed' | 'stored', rid: string) => Promise<void>;
}

/** Real time; 60 s steps (override with BROADCAST_STEP_BUDGET_MS). */
export const realEngine = (): EngineDeps => ({
  now: Date.now,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  rand: Math.random,
  budgetMs: Number(process.env.BROADCAST_STEP_BUDGET_MS) || 60_000,
  templateOf: cachedTemplates(),
  mediaOf: cachedMedia(),
});

/** The message a broadcast's file is stored on (null when gone). */
const mediaSource = async (orgId: string, chatId: string, uniqueId: string): Promise<ForwardSource | null> =>
  ((await getMessageItem(orgId, chatId, uniqueId).catch(() => null)) as unknown as ForwardSource | null) ?? null;

/** mediaSource with a per-engine cache. */
function cachedMedia(): NonNullable<EngineDeps['mediaOf']> {
  const cache = new Map<string, Promise<ForwardSource | null>>();
  return (orgId, chatId, uniqueId) => {
    const k = `${orgId}|${chatId}|${uniqueId}`;
    let p = cache.get(k);
    if (!p) cache.set(k, (p = mediaSource(orgId, chatId, uniqueId)));
    return p;
  };
}

/** getTemplate with a per-engine cache (a step lives at most a few minutes; a sync meanwhile is seen by the next step). */
export function cachedTemplates(): NonNullable<EngineDeps['templateOf']> {
  const cache = new Map<string, Promise<TemplateView | undefined>>();
  return (orgId, phoneId, name, language) => {
    const k = `${orgId}|${phoneId}|${name}|${language}`;
    let p = cache.get(k);
    if (!p) cache.set(k, (p = getTemplate(orgId, phoneId, name, language)));
    return p;
  };
}

/** The broadcast's creator as an actor, with the role they have now. null: no longer an active member. */
async function creatorActor(job: JobRow): Promise<Actor | null> {
  const m = (await db().entities.member.get({ org_id: job.org_id, email: job.created_by }).go()).data;
  if (!m || m.is_active === false) return null;
  return { email: m.email, user_id: m.user_id ?? '', org_id: job.org_id, role: m.role };
}

/**
 * One transaction, retried while it only lost a race with another transaction (TransactionConflict:
 * every send of a broadcast adds to the same job and usage rows, several in flight at once).
 * @returns 'ok', or the index of the first item whose condition failed
 */
async function writeTx(build: (e: TxEntities) => TxItem[]): Promise<'ok' | number> {
  for (let n = 0; n < 30; n++) {
    const res = await db().transaction.write(build as never).go();
    if (!res.canceled) return 'ok';
    const codes = (res.data as Array<{ code?: string }>).map((d) => d?.code ?? 'None');
    const failed = codes.indexOf('ConditionalCheckFailed');
    if (failed >= 0) return failed;
    prof.txRetries++;
    await new Promise((r) => setTimeout(r, 2 + Math.random() * 10 * Math.min(n + 1, 10)));
  }
  throw new Error('a broadcast transaction kept conflicting');
}

/** Hand over to step seq+1 (conditional on `step` = seq): at once, or at `at` through the scheduler. false: another chain owns the job now. */
async function handOver(job: JobRow, seq: number, at: number | null, now: number): Promise<boolean> {
  try {
    await db()
      .entities.broadcast.patch({ org_id: job.org_id, broadcast_id: job.broadcast_id })
      .set(at != null ? { step: seq + 1, waiting_until: at } : { step: seq + 1 })
      .remove(at != null ? [] : ['waiting_until'])
      .where((a, { eq }) => `${eq(a.step, seq)} AND ${eq(a.status, 'running')}`)
      .go();
  } catch (e) {
    if ((await import('../db/retry.ts')).isConflictError(e)) return false;
    throw e;
  }
  await wake(job.org_id, job.broadcast_id, seq + 1, at != null && at > now ? at : null);
  return true;
}

/** Finish a broadcast whose recipients are all done (conditional on the chain). */
async function complete(job: JobRow, seq: number, now: number): Promise<void> {
  await db()
    .entities.broadcast.patch({ org_id: job.org_id, broadcast_id: job.broadcast_id })
    .set({ status: 'completed', finished_at: now })
    .remove(['waiting_until'])
    .where((a, { eq }) => `${eq(a.step, seq)} AND ${eq(a.status, 'running')}`)
    .go()
    .catch(async (e: unknown) => {
      if (!(await import('../db/retry.ts')).isConflictError(e)) throw e;
    });
  log('info', 'broadcast.completed', { org_id: job.org_id, broadcast_id: job.broadcast_id });
}

/**
 * Claim a pending recipient: pending -> sending with the message key, and the month's credit taken
 * (`used` below the limit), in one transaction. @returns the claimed row, 'taken' when another run has
 * it, 'no_credit' when the month's credits ran out
 */
async function claim(job: JobRow, r: RecipientRow, limit: number, now: number): Promise<RecipientRow | 'taken' | 'no_credit'> {
  // no credits at all (after an end they read 0): the usage condition below would let the month's
  // first claim through when no usage row exists yet
  if (limit <= 0) return 'no_credit';
  const msg_unique_id = ulid(now);
  const key = { org_id: r.org_id, broadcast_id: r.broadcast_id, rid: r.rid };
  const month = creditMonth(now);
  const r2 = await writeTx((e) => [
    e.broadcastRecipient
      .patch(key)
      .set({ state: 'sending', msg_unique_id, msg_timestamp: now, claimed_at: now })
      .where((a, { eq }) => eq(a.state, 'pending'))
      .commit() as TxItem,
    e.broadcastUsage
      .update({ org_id: job.org_id, month })
      .add({ used: 1 })
      .set({ expires_at: Math.floor(now / 1000) + 400 * 24 * 3600 })
      .where((a, { notExists, lt }) => `${notExists(a.used)} OR ${lt(a.used, limit)}`)
      .commit() as TxItem,
  ]);
  if (r2 === 'ok') return { ...r, state: 'sending', msg_unique_id, msg_timestamp: now, claimed_at: now };
  return r2 === 0 ? 'taken' : 'no_credit';
}

/** sending -> sent, the job's counter and the refs (statuses, replies) in one transaction. */
async function finishSent(job: JobRow, r: RecipientRow, now: number): Promise<void> {
  const expires_at = Math.floor(now / 1000) + REF_TTL_SECONDS;
  const ref = { org_id: r.org_id, broadcast_id: r.broadcast_id, rid: r.rid, sent_at: now, expires_at };
  await writeTx((e) => [
    e.broadcastRecipient
      .patch({ org_id: r.org_id, broadcast_id: r.broadcast_id, rid: r.rid })
      .set({ state: 'sent', sent_at: now, ack: 0 })
      .where((a, { eq }) => eq(a.state, 'sending'))
      .commit() as TxItem,
    e.broadcast.patch({ org_id: job.org_id, broadcast_id: job.broadcast_id }).add({ sent_count: 1 }).commit() as TxItem,
    e.broadcastRef.put({ ...ref, kind: 'msg', ref: r.msg_unique_id! }).commit() as TxItem,
    e.broadcastRef.put({ ...ref, kind: 'chat', ref: r.chat_id! }).commit() as TxItem,
  ]);
}

/** Recipients claimed or finished in one transaction at most (a finish is 3 items a recipient + 1; DynamoDB allows 100). */
const GROUP_MAX = 25;

/**
 * Claim several pending recipients in one transaction (claim's rule for each: pending -> sending with
 * its message key fixed at its own paced time `at`; the month's usage takes all their credits with
 * `used <= limit - n`). A recipient another run took is answered 'taken' and the rest committed again;
 * when the month's remainder is smaller than the group, each is claimed on its own (claim), so the
 * credits are used up exactly. @returns per item: the claimed row, 'taken' or 'no_credit'
 */
async function claimGroup(job: JobRow, items: Array<{ r: RecipientRow; at: number }>, limit: number): Promise<Array<RecipientRow | 'taken' | 'no_credit'>> {
  const out: Array<RecipientRow | 'taken' | 'no_credit' | undefined> = items.map(() => undefined);
  let todo = items.map((it, i) => ({ ...it, i, msg_unique_id: ulid(it.at) }));
  while (todo.length > 1 && todo.length <= limit) {
    const n = todo.length;
    const month = creditMonth(todo[0]!.at);
    const res = await writeTx((e) => [
      ...todo.map(({ r, at, msg_unique_id }) =>
        e.broadcastRecipient
          .patch({ org_id: r.org_id, broadcast_id: r.broadcast_id, rid: r.rid })
          .set({ state: 'sending', msg_unique_id, msg_timestamp: at, claimed_at: at })
          .where((a, { eq }) => eq(a.state, 'pending'))
          .commit() as TxItem,
      ),
      e.broadcastUsage
        .update({ org_id: job.org_id, month })
        .add({ used: n })
        .set({ expires_at: Math.floor(todo[0]!.at / 1000) + 400 * 24 * 3600 })
        .where((a, { notExists, lte }) => `${notExists(a.used)} OR ${lte(a.used, limit - n)}`)
        .commit() as TxItem,
    ]);
    if (res === 'ok') {
      for (const t of todo) out[t.i] = { ...t.r, state: 'sending', msg_unique_id: t.msg_unique_id, msg_timestamp: t.at, claimed_at: t.at };
      return out as Array<RecipientRow | 'taken' | 'no_credit'>;
    }
    if (res === n) break; // fewer credits left than the group: one by one below
    out[todo[res]!.i] = 'taken';
    todo = todo.filter((_, k) => k !== res);
  }
  for (const t of todo) out[t.i] = await claim(job, t.r, limit, t.at);
  return out as Array<RecipientRow | 'taken' | 'no_credit'>;
}

/**
 * finishSent for several recipients in one transaction: each sending -> sent with its refs, the
 * job's counter added once for all. A recipient no longer `sending` is left out (as finishSent's
 * condition would) and the rest committed again.
 */
async function finishGroup(job: JobRow, items: Array<{ r: RecipientRow; at: number }>): Promise<void[]> {
  let todo = items;
  while (todo.length) {
    const group = todo;
    const res = await writeTx((e) => [
      ...group.map(({ r, at }) =>
        e.broadcastRecipient
          .patch({ org_id: r.org_id, broadcast_id: r.broadcast_id, rid: r.rid })
          .set({ state: 'sent', sent_at: at, ack: 0 })
          .where((a, { eq }) => eq(a.state, 'sending'))
          .commit() as TxItem,
      ),
      e.broadcast.patch({ org_id: job.org_id, broadcast_id: job.broadcast_id }).add({ sent_count: group.length }).commit() as TxItem,
      ...group.flatMap(({ r, at }) => {
        const ref = { org_id: r.org_id, broadcast_id: r.broadcast_id, rid: r.rid, sent_at: at, expires_at: Math.floor(at / 1000) + REF_TTL_SECONDS };
        return [e.broadcastRef.put({ ...ref, kind: 'msg', ref: r.msg_unique_id! }).commit() as TxItem, e.broadcastRef.put({ ...ref, kind: 'chat', ref: r.chat_id! }).commit() as TxItem];
      }),
    ]);
    if (res === 'ok' || res >= group.length) break;
    todo = group.filter((_, k) => k !== res);
  }
  return items.map(() => undefined);
}

/** sending | sent -> failed with the reason; the job's counters and the month's credit given back, in one transaction. */
export async function finishFailed(orgId: string, broadcastId: string, rid: string, from: 'sending' | 'sent', error: string, now = Date.now()): Promise<boolean> {
  const done = await writeTx((e) => [
    e.broadcastRecipient
      .patch({ org_id: orgId, broadcast_id: broadcastId, rid })
      .set({ state: 'failed', error: error.slice(0, 500), ack: -1 })
      .where((a, { eq }) => (from === 'sent' ? eq(a.state, 'sent') : eq(a.state, 'sending')))
      .commit() as TxItem,
    (from === 'sent' ? e.broadcast.patch({ org_id: orgId, broadcast_id: broadcastId }).add({ failed_count: 1, sent_count: -1 }) : e.broadcast.patch({ org_id: orgId, broadcast_id: broadcastId }).add({ failed_count: 1 })).commit() as TxItem,
    e.broadcastUsage.update({ org_id: orgId, month: creditMonth(now) }).add({ used: -1 }).commit() as TxItem,
  ]);
  return done === 'ok';
}

/**
 * Store (or find) a claimed recipient's message and finish the recipient. The message key was fixed
 * by the claim: if a message with that key exists, an earlier run stored it (and queued it, unless it
 * died right between the two: then it is queued again, which the outbound consumer's claim makes
 * harmless); otherwise it is stored now through the inbox's send path.
 * @param fresh true when this run claimed `r` just now (a new key: the message is not looked up)
 * @param chat the recipient's chat row as the step read it with its page (sendMessage's first attempt uses it)
 */
async function deliver(job: JobRow, actor: Actor, r: RecipientRow, deps: EngineDeps, fresh = false, finish: (r: RecipientRow, now: number) => Promise<unknown> = (x, now) => finishSent(job, x, now), chat?: Record<string, unknown>): Promise<void> {
  const key = { org_id: r.org_id, chat_id: r.chat_id!, timestamp: r.msg_timestamp!, unique_id: r.msg_unique_id! };
  // a claim this run just made has a new key: no message can have it yet (no read)
  const existing = fresh ? null : (await db().entities.message.get(key).go()).data;
  if (existing) {
    if (!existing.message_id && existing.ack === 0 && existing.send_started_at == null && existing.send_uncertain_at == null) {
      await enqueue('whatsapp-outbound', { ...key } satisfies OutboundCommand);
    }
    await finish(r, deps.now());
    return;
  }
  // issue 42 §1: a broadcast acts with its creator's rights now: a chat they may no longer see (access
  // changed since the audience was resolved) is not written to (the one guard's rule, actorCanSeeChat)
  if (actor.role !== 'admin') {
    const row = chat ?? (await db().entities.chat.get({ org_id: r.org_id, chat_id: r.chat_id! }).go()).data;
    const { actorCanSeeChat } = await import('../access/guard.ts');
    if (row && !actorCanSeeChat(actor, row as { chat_access?: unknown })) {
      await finishFailed(r.org_id, r.broadcast_id, r.rid, 'sending', NO_CHAT_ACCESS_MESSAGE, deps.now());
      return;
    }
  }
  const content = job.content as PreviewBroadcastInput['content'];
  let body: string;
  let template: TemplateSnapshot | undefined;
  if (r.via === 'template') {
    const t = await (deps.templateOf ?? getTemplate)(job.org_id, r.phone_id!, content.template!.name, content.template!.language);
    const problems = t ? templateValueProblems(t, fillTemplateValues(content.template!.values, varsOf(r))) : [];
    if (!t || problems.length) {
      // removed or changed by a template sync since the broadcast was created
      const why = !t ? `The template ${content.template!.name} (${content.template!.language}) is no longer synced for this number.` : `The template cannot be sent: ${problems[0]!.field} ${problems[0]!.reason}.`;
      await finishFailed(r.org_id, r.broadcast_id, r.rid, 'sending', why, deps.now());
      return;
    }
    ({ snapshot: template, text: body } = templateFor(t, content.template!.values, r));
  } else body = textFor(content.body ?? '', r);
  let prepared: InternalSend['prepared'];
  const file = template ? undefined : content.media;
  if (file && 'upload_id' in file) {
    const up = uploadedMediaFor(await getBroadcastUpload(job.org_id, file.upload_id), r.phone_id ?? '', r.connection_type, body, deps.now());
    if ('refused' in up) {
      await finishFailed(r.org_id, r.broadcast_id, r.rid, 'sending', up.refused, deps.now());
      return;
    }
    prepared = up;
  } else if (file) {
    const src = await (deps.mediaOf ?? mediaSource)(job.org_id, file.chat_id, file.unique_id);
    const plan = src ? forwardPlan(src, r.phone_id ?? '', deps.now()) : null;
    if (plan?.kind !== 'media') {
      await finishFailed(r.org_id, r.broadcast_id, r.rid, 'sending', plan?.kind === 'refused' ? plan.reason : 'The broadcast’s file is no longer in the media library.', deps.now());
      return;
    }
    const { caption: _old, ...media } = plan.media;
    prepared = { message_type: plan.message_type, media: { ...media, ...(body.trim() ? { caption: body } : {}) } };
  }
  if (deps.crashPoint) await deps.crashPoint('claimed', r.rid);
  try {
    await timed('storeMs', () => sendMessage(actor, r.chat_id!, { body }, { key: { unique_id: key.unique_id, timestamp: key.timestamp }, ...(template ? { template } : {}), ...(prepared ? { prepared } : {}), ...(chat ? { chat } : {}) }));
  } catch (e) {
    if (!(e instanceof AppError) || e.status === 503) throw e; // not queued: the step retries this recipient
    await finishFailed(r.org_id, r.broadcast_id, r.rid, 'sending', e.message, deps.now());
    return;
  }
  if (deps.crashPoint) await deps.crashPoint('stored', r.rid);
  await timed('finishMs', () => finish(r, deps.now()));
}

/**
 * Opt-in profile of the engine (env BROADCAST_PROFILE = a file path; the bench sets it): per step,
 * the sends, the mean ms of each phase (claim transaction, message stored through sendMessage,
 * finish transaction) and the transaction retries (TransactionConflict on the shared job / usage
 * rows), appended as one JSON line. Off: nothing is measured or written.
 */
const prof = { sends: 0, claimMs: 0, storeMs: 0, finishMs: 0, txRetries: 0, since: 0 };
async function timed<T>(phase: 'claimMs' | 'storeMs' | 'finishMs', f: () => Promise<T>): Promise<T> {
  if (!process.env.BROADCAST_PROFILE) return f();
  const t0 = performance.now();
  try {
    return await f();
  } finally {
    prof[phase] += performance.now() - t0;
  }
}
async function flushProfile(broadcastId: string, seq: number, now: number): Promise<void> {
  const file = process.env.BROADCAST_PROFILE;
  if (!file || !prof.sends) return;
  const n = prof.sends;
  const wallMs = Math.max(1, now - (prof.since || now));
  const line = { broadcast_id: broadcastId, seq, sends: n, wall_ms: Math.round(wallMs), per_s: +((n * 1000) / wallMs).toFixed(2), claim_ms: +(prof.claimMs / n).toFixed(1), store_ms: +(prof.storeMs / n).toFixed(1), finish_ms: +(prof.finishMs / n).toFixed(1), tx_retries: prof.txRetries };
  Object.assign(prof, { sends: 0, claimMs: 0, storeMs: 0, finishMs: 0, txRetries: 0, since: now });
  await (await import('node:fs/promises')).appendFile(file, `${JSON.stringify(line)}\n`);
}

/** A claim older than this without a result is a run that died (a live run finishes a send in well under a second). */
export const STALE_CLAIM_MS = 15_000;

/**
 * The next recipients to work on: claims left by a run that died first (re-read consistently: the
 * index may lag), then pending ones. `waitUntil` when only fresh claims of another live run are left.
 */
async function nextPage(job: JobRow, now: number): Promise<{ rows: RecipientRow[]; waitUntil?: number }> {
  const key = { org_id: job.org_id, broadcast_id: job.broadcast_id };
  const claimed = (await db().entities.broadcastRecipient.query.byState({ ...key, state: 'sending' }).go({ limit: PAGE, pages: 1 })).data as RecipientRow[];
  const stale: RecipientRow[] = [];
  let waitUntil: number | undefined;
  for (const c of claimed) {
    const cur = (await db().entities.broadcastRecipient.get({ ...key, rid: c.rid }).go({ consistent: true })).data as RecipientRow | null;
    if (cur?.state !== 'sending') continue;
    if ((cur.claimed_at ?? 0) <= now - STALE_CLAIM_MS) stale.push(cur);
    else waitUntil = Math.min(waitUntil ?? Infinity, (cur.claimed_at ?? now) + STALE_CLAIM_MS);
  }
  if (stale.length) return { rows: stale };
  const pending = (await db().entities.broadcastRecipient.query.byState({ ...key, state: 'pending' }).go({ limit: PAGE, pages: 1 })).data as RecipientRow[];
  return { rows: pending, ...(pending.length ? {} : waitUntil !== undefined ? { waitUntil } : {}) };
}

/**
 * A claimed Graph call (`send_started_at`) older than this has no live owner: the outbound
 * consumer's Lambda timeout (150 s, infra/stacks/workers-stack.ts) plus a margin. Lambda stops an
 * invocation at its timeout, so after this nobody can still be about to make that call. (Locally a
 * consumer is never that long between its claim and the request leaving the process.)
 */
export const DEAD_SEND_CLAIM_MS = 180_000;
/** A broadcast message stored but not claimed by the outbound consumer this long is queued again (its command may have died with a process; a second command is harmless: claimSend). */
export const REQUEUE_AFTER_MS = 60_000;
/** A claimed Graph call still without a result after this is no longer expected to finish (the call's own timeout is 15 s: graph-client sendToGraph). */
const LIVE_SEND_MS = 30_000;
/** A broadcast message's key (the message entity's). */
type SendKey = { org_id: string; chat_id: string; timestamp: number; unique_id: string };
/** How often the end-of-run check looks again while messages are still on their way to WhatsApp. */
const RECHECK_MS = 1000;

/**
 * The end of a run (issue 16 "a restart … sends nobody twice and skips nobody"): every recipient is
 * `sent` (its message stored and queued), but a process killed between the outbound consumer's
 * claim of the Graph call and the call itself leaves a message claimed, without a wamid, that the
 * at-most-once rule of issue 23 never sends again on its own. This check reads every `sent`
 * Cloud API recipient's message (Query 1,000 + BatchGet) and settles each one still without a wamid:
 * - not claimed yet: on its way (re-queued when older than REQUEUE_AFTER_MS); look again soon;
 * - claimed less than DEAD_SEND_CLAIM_MS ago: its owner may be alive; look again in a second while
 *   the claim is younger than LIVE_SEND_MS (a send in progress), else once the claim is dead;
 * - a dead claim: ask the Graph side which sends it accepted with this message's
 *   biz_opaque_callback_data (graph-client lookupSentByCallbackData). Accepted -> record that wamid
 *   (recordAccepted); nothing accepted -> release the claim and queue it again (releaseDeadSend:
 *   conditional on that very claim, so it is queued once). Meta has no such lookup ('unsupported'):
 *   the message stays "may not have been sent" (markSendUncertain) until Meta's status webhook
 *   reconciles it or a member presses Retry — never sent twice.
 * @param queued unique_ids this step queued already (released or re-queued): not queued again by it
 * @param only check these messages only (the `open` ones of this step's previous check) instead of
 *   reading every `sent` recipient again
 * @returns `again`: when to look again (epoch ms), or null when every message is settled; `open`:
 *   the messages to look at then
 */
export async function reconcileSends(job: JobRow, now: number, queued: Set<string> = new Set(), only?: SendKey[]): Promise<{ again: number | null; open: SendKey[] }> {
  const key = { org_id: job.org_id, broadcast_id: job.broadcast_id };
  let again: number | null = null;
  const open: SendKey[] = [];
  const soon = (at: number, k: SendKey) => {
    again = Math.min(again ?? Infinity, at);
    open.push(k);
  };
  const check = async (keys: SendKey[]) => {
    const got = await db().entities.message.get(keys).go({ concurrency: 4 });
    // keys DynamoDB left unprocessed: look again
    for (const u of got.unprocessed as SendKey[]) soon(now + RECHECK_MS, { org_id: job.org_id, chat_id: u.chat_id, timestamp: u.timestamp, unique_id: u.unique_id });
    for (const m of got.data as Array<Record<string, unknown> & { chat_id: string; timestamp: number; unique_id: string; phone_id: string; ack: number; message_id?: string; send_started_at?: number; send_uncertain_at?: number }>) {
      if (m.message_id || m.ack !== 0) continue;
      const mk = { org_id: job.org_id, chat_id: m.chat_id, timestamp: m.timestamp, unique_id: m.unique_id };
      const claimedAt = m.send_started_at;
      if (claimedAt == null) {
        if (now - m.timestamp >= REQUEUE_AFTER_MS && !queued.has(m.unique_id)) {
          queued.add(m.unique_id);
          await enqueue('whatsapp-outbound', { ...mk } satisfies OutboundCommand);
        }
        soon(now + RECHECK_MS, mk);
        continue;
      }
      if (now - claimedAt < DEAD_SEND_CLAIM_MS) {
        // a live send records its result within seconds: look again soon; an older claim waits until it is dead
        soon(now - claimedAt < LIVE_SEND_MS ? now + RECHECK_MS : claimedAt + DEAD_SEND_CLAIM_MS, mk);
        continue;
      }
      const found = await lookupSentByCallbackData(m.phone_id, callbackDataFor(mk), await phoneAccessToken(m.phone_id));
      if (found === 'unsupported') {
        if (m.send_uncertain_at == null) await markSendUncertain(mk, m);
      } else if (found.length) {
        await recordAccepted(mk, m, found[0]!);
        log('info', 'broadcast.send_reconciled', { ...mk, broadcast_id: job.broadcast_id, message_id: found[0] });
      } else {
        if (await releaseDeadSend(mk, m, claimedAt)) queued.add(m.unique_id);
        soon(now + RECHECK_MS, mk);
      }
    }
  };
  if (only) {
    for (let i = 0; i < only.length; i += 1000) await check(only.slice(i, i + 1000));
    return { again, open };
  }
  let cursor: string | null = null;
  do {
    const page: { data: unknown[]; cursor: string | null } = await db()
      .entities.broadcastRecipient.query.byState({ ...key, state: 'sent' })
      .go({ limit: 1000, pages: 1, attributes: ['chat_id', 'msg_unique_id', 'msg_timestamp', 'connection_type'], ...(cursor ? { cursor } : {}) });
    cursor = page.cursor;
    const keys = (page.data as RecipientRow[])
      .filter((r) => r.connection_type !== 'wa_web' && r.chat_id && r.msg_unique_id && r.msg_timestamp != null)
      .map((r) => ({ org_id: job.org_id, chat_id: r.chat_id!, timestamp: r.msg_timestamp!, unique_id: r.msg_unique_id! }));
    if (keys.length) await check(keys);
  } while (cursor);
  return { again, open };
}

/** The page of pending recipients after `afterRid` (the engine's read-ahead). */
async function pendingAfter(job: JobRow, afterRid: string): Promise<RecipientRow[]> {
  const key = { org_id: job.org_id, broadcast_id: job.broadcast_id, state: 'pending' as const };
  return (await db().entities.broadcastRecipient.query.byState(key).gt({ rid: afterRid }).go({ limit: PAGE, pages: 1 })).data as RecipientRow[];
}

/**
 * Run step `seq` of a broadcast (the broadcasts consumer). Stale steps (the job's `step` moved on,
 * or it is not running) do nothing. Sends until the budget is spent, the quiet hours start, the job
 * is paused or cancelled, or nobody is left; then hands over or completes.
 * @throws on infrastructure errors (the queue retries the step; claims make that safe)
 */
export async function runBroadcastStep(cmd: BroadcastStepCommand, deps: EngineDeps = realEngine()): Promise<void> {
  let job = await jobOf(cmd.org_id, cmd.broadcast_id);
  if (!job || job.step !== cmd.seq) return;
  if (job.audience_parts != null && job.prepared_at == null && job.status !== 'cancelled') {
    // the recipients are still audience parts: store their rows first (nobody is claimed before)
    const ready = await prepareAudience(job, deps.now);
    if (ready !== 'ready') return wake(job.org_id, job.broadcast_id, cmd.seq, ready);
    job = await jobOf(cmd.org_id, cmd.broadcast_id);
    if (!job || job.step !== cmd.seq) return;
  }
  const start = deps.now();
  if (job.status === 'scheduled') {
    if (job.send_at && job.send_at > start + 1000) return wake(job.org_id, job.broadcast_id, cmd.seq, job.send_at);
    await db().entities.broadcast.patch({ org_id: job.org_id, broadcast_id: job.broadcast_id }).set({ status: 'running', started_at: start }).where((a, { eq }) => `${eq(a.step, cmd.seq)} AND ${eq(a.status, 'scheduled')}`).go();
    job = { ...job, status: 'running', started_at: start };
  }
  if (job.status !== 'running') return;
  const actor = await creatorActor(job);
  if (!actor) {
    await db().entities.broadcast.patch({ org_id: job.org_id, broadcast_id: job.broadcast_id }).set({ status: 'cancelled', finished_at: start }).go();
    log('warn', 'broadcast.creator_gone', { org_id: job.org_id, broadcast_id: job.broadcast_id });
    return;
  }
  const clock = await getOrgClock(job.org_id);
  const quiet = (job.quiet_hours as JobRow['quiet_hours'] & { start: string; end: string }) ?? null;
  const { limit } = await creditUsageOf(job.org_id, start);
  const pacer = new NumberPacer(job.pace_ms, deps.rand);
  // claims and finishes of this step's sends share transactions while one is in flight (GroupCommit)
  const jobNow = job;
  const claims = new GroupCommit<{ r: RecipientRow; at: number }, RecipientRow | 'taken' | 'no_credit'>((items) => claimGroup(jobNow, items, limit), GROUP_MAX);
  const finishes = new GroupCommit<{ r: RecipientRow; at: number }, void>((items) => finishGroup(jobNow, items), GROUP_MAX);
  let failure: unknown;
  // a send's slot is free once its message is stored and queued: its finish (sending -> sent) is
  // committed in the background, settled before anything reads the recipients' states again
  const finishing = new Set<Promise<void>>();
  const finish = (x: RecipientRow, at: number): Promise<void> => {
    const p: Promise<void> = finishes
      .add({ r: x, at })
      .catch((e: unknown) => {
        failure ??= e;
      })
      .finally(() => finishing.delete(p));
    finishing.add(p);
    return Promise.resolve();
  };
  prof.since = Date.now();
  const deadline = start + deps.budgetMs;
  const limits = new Map<string, { readAt: number; seen: number }>();
  const inFlight = new Set<Promise<void>>();
  const queued = new Set<string>();
  let stillOpen: SendKey[] | undefined;
  let checkedAt = start;
  let outOfCredits = false;
  // the job's status and the numbers' rate-limit rows are read in the background (at most once a
  // second each): a slow read never holds the paced loop; what it finds applies when it lands
  let jobCheck: Promise<void> | null = null;
  let stopped = false;
  const limitReads = new Set<string>();
  // the chats of the next CHAT_BATCH recipients in one BatchGet (not a GetItem per send): sendMessage's
  // first attempt uses the row, a chat that changed since fails its version check and is read again
  const pageChats = new Map<string, { at: number; row: Promise<Record<string, unknown> | undefined> }>();
  const prefetchChats = (page: RecipientRow[]) => {
    const ids = [...new Set(page.filter((x) => x.chat_id && !pageChats.has(x.chat_id)).map((x) => x.chat_id!))];
    if (!ids.length) return;
    const got = chatsById(cmd.org_id, ids).catch(() => new Map<string, ChatLike>());
    const at = deps.now();
    for (const id of ids) pageChats.set(id, { at, row: got.then((m) => m.get(id) as Record<string, unknown> | undefined) });
  };
  const chatFor = async (chatId: string | undefined): Promise<Record<string, unknown> | undefined> => {
    const hit = chatId ? pageChats.get(chatId) : undefined;
    if (!hit) return undefined;
    pageChats.delete(chatId!);
    return deps.now() - hit.at < PAGE_CHAT_FRESH_MS ? hit.row : undefined;
  };
  const checkJob = (now: number) => {
    checkedAt = now;
    jobCheck = jobOf(cmd.org_id, cmd.broadcast_id)
      .then((cur) => {
        if (!cur || cur.step !== cmd.seq || cur.status !== 'running') stopped = true;
      })
      .catch((e: unknown) => {
        failure ??= e;
      })
      .finally(() => {
        jobCheck = null;
      });
  };
  const settle = async () => {
    await Promise.all(inFlight);
    await Promise.all(finishing);
    await jobCheck;
    await flushProfile(job!.broadcast_id, cmd.seq, Date.now());
    if (failure) throw failure;
  };

  // the next page of pending recipients is read while this one sends (after its last rid), so the
  // slots never drain at a page boundary; claims left by a dead run are looked for after a settle
  let ahead: Promise<RecipientRow[]> | null = null;
  for (;;) {
    let rows: RecipientRow[] = [];
    let waitUntil: number | undefined;
    if (ahead) {
      rows = await ahead;
      ahead = null;
    }
    if (!rows.length) {
      await settle();
      ({ rows, waitUntil } = await nextPage(job, deps.now()));
    }
    if (rows.length && rows[0]!.state === 'pending') {
      ahead = pendingAfter(job, rows[rows.length - 1]!.rid);
      ahead.catch(() => undefined);
    }
    if (!rows.length) {
      if (waitUntil === undefined) {
        // everyone is stored and queued: wait until each message reached WhatsApp (reconcileSends)
        const { again, open } = await reconcileSends(job, deps.now(), queued, stillOpen);
        stillOpen = open;
        if (again == null) return complete(job, cmd.seq, deps.now());
        if (again >= deadline) {
          await handOver(job, cmd.seq, again, deps.now());
          return;
        }
        const cur = await jobOf(job.org_id, job.broadcast_id);
        if (!cur || cur.step !== cmd.seq || cur.status !== 'running') return;
        await deps.sleep(Math.max(0, again - deps.now()));
        continue;
      }
      // another run's fresh claims: look again once they are stale (or done)
      if (waitUntil >= deadline) {
        await handOver(job, cmd.seq, waitUntil, deps.now());
        return;
      }
      await deps.sleep(Math.max(0, waitUntil - deps.now()));
      continue;
    }
    for (const [i, r] of rows.entries()) {
      if (i % CHAT_BATCH === 0 && r.state === 'pending') prefetchChats(rows.slice(i, i + CHAT_BATCH));
      let now = deps.now();
      if (stopped) return settle();
      if (quiet && inQuietHours(quiet, localTime(now, clock.time_zone).minute_of_day)) {
        await settle();
        await handOver(job, cmd.seq, now + msUntilQuietEnds(quiet, now, localTime(now, clock.time_zone).minute_of_day), now);
        return;
      }
      const phone = r.phone_id ?? '-';
      const lim = limits.get(phone);
      if (!limitReads.has(phone) && (!lim || now - lim.readAt >= LIMIT_REFRESH_MS)) {
        // the first read of a number is awaited (a backoff noted before this step applies to its first send)
        const read = lastRateLimitAt(job.org_id, phone).then((at) => {
          const seen = limits.get(phone)?.seen ?? start - 1000;
          if (at != null && at > seen) pacer.rateLimited(phone, at);
          limits.set(phone, { readAt: now, seen: Math.max(seen, at ?? 0) });
        });
        limitReads.add(phone);
        const done = read.catch((e: unknown) => {
          failure ??= e;
        }).finally(() => limitReads.delete(phone));
        if (!lim) await done;
        else limits.set(phone, { ...lim, readAt: now });
      }
      const ready = pacer.readyAt(phone);
      if (ready >= deadline) {
        await settle();
        await handOver(job, cmd.seq, ready, deps.now());
        return;
      }
      // the job's status (pause, cancel, a newer chain): read once a second without holding the loop;
      // a wait of a second or more for the slot (a slow pace) covers the read, so it is fresh then
      const waitMs = Math.max(0, ready - now);
      if (!jobCheck && (now - checkedAt >= JOB_REFRESH_MS || waitMs >= JOB_REFRESH_MS)) checkJob(now);
      if (waitMs > 0) await deps.sleep(waitMs);
      if (waitMs >= JOB_REFRESH_MS) await jobCheck;
      if (stopped) return settle();
      now = deps.now();
      if (now >= deadline) {
        await settle();
        await handOver(job, cmd.seq, null, now);
        return;
      }
      pacer.sent(phone, r.connection_type ?? 'wa_cloud', now);
      // the claim runs inside the send's task: the loop only keeps the slots (a slow write never stretches the pace)
      const claimedAt = now;
      const task = async (): Promise<void> => {
        let row = r;
        if (r.state === 'pending') {
          const c = await timed('claimMs', () => claims.add({ r, at: claimedAt }));
          if (c === 'taken') return;
          if (c === 'no_credit') {
            outOfCredits = true;
            return;
          }
          row = c;
        }
        await deliver(job, actor, row, deps, row !== r, finish, row !== r ? await chatFor(row.chat_id) : undefined);
        prof.sends++;
      };
      const p: Promise<void> = task()
        .catch((e: unknown) => {
          failure ??= e;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
      if (outOfCredits) {
        await settle();
        const pause_reason = await pauseReasonOf(job.org_id, deps.now());
        await db().entities.broadcast.patch({ org_id: job.org_id, broadcast_id: job.broadcast_id }).set({ status: 'paused', pause_reason }).where((a, { eq }) => eq(a.step, cmd.seq)).go().catch(() => undefined);
        log('warn', 'broadcast.out_of_credits', { org_id: job.org_id, broadcast_id: job.broadcast_id, pause_reason });
        return;
      }
      if (failure) return settle();
    }
  }
}

// ---- statistics (the broadcast-stats consumer) ---------------------------------------------

/**
 * A status of a broadcast message (message.status_updated): the recipient's ack moves forward
 * (delivered, read) and the job's counters with it, in one transaction conditioned on the recipient's
 * previous ack, so a redelivered or out-of-order status never counts twice. A failure (ack -1, e.g.
 * WhatsApp refused the send) turns the recipient `failed` with the reason and gives its credit back.
 * Messages that are not a broadcast's are ignored (one GetItem).
 * @returns whether it changed anything (false: not a broadcast message, or nothing new)
 */
export async function applyBroadcastStatus(orgId: string, message: { unique_id: string; ack: number; delivery_error?: { reason?: string | null } | null }): Promise<boolean> {
  const ref = (await db().entities.broadcastRef.get({ org_id: orgId, kind: 'msg', ref: message.unique_id }).go()).data;
  if (!ref) return false;
  const key = { org_id: orgId, broadcast_id: ref.broadcast_id, rid: ref.rid };
  const r = (await db().entities.broadcastRecipient.get(key).go({ consistent: true })).data as RecipientRow | null;
  if (!r || r.state !== 'sent') return false;
  if (message.ack === -1) {
    await finishFailed(orgId, ref.broadcast_id, ref.rid, 'sent', message.delivery_error?.reason ?? 'WhatsApp could not deliver this message.');
    return true;
  }
  const prev = r.ack ?? 0;
  const next = Math.max(prev, message.ack);
  if (next === prev) return false;
  const add = { ...(prev < 2 && next >= 2 ? { delivered_count: 1 } : {}), ...(prev < 3 && next >= 3 ? { read_count: 1 } : {}) };
  await writeTx((e) => [
    e.broadcastRecipient
      .patch(key)
      .set({ ack: next })
      .where((a, { eq }) => `${eq(a.state, 'sent')} AND ${eq(a.ack, prev)}`)
      .commit() as TxItem,
    ...(Object.keys(add).length ? [e.broadcast.patch({ org_id: orgId, broadcast_id: ref.broadcast_id }).add(add).commit() as TxItem] : []),
  ]);
  return true;
}

/** How long after a broadcast a customer's message counts as a reply to it. */
export const REPLY_WINDOW_MS = 7 * 24 * 3600_000;

/**
 * Customer messages (message.received) of one consumer batch: a message in a chat whose latest
 * broadcast was sent to it within the last 7 days marks that recipient `replied` (once) and raises
 * the job's counter, in one transaction. The chats' broadcast refs are read with one BatchGet per
 * org (100 keys a call), not one GetItem per message (issue 23: a hot chat's every customer message
 * paid a read here). `message.timestamp` is epoch ms.
 * @returns one settled result per item, in order: whether it counted a reply (a failed read fails that org's items)
 */
export async function applyBroadcastReplies(items: Array<{ orgId: string; chatId: string; message: { from_me?: boolean | null; timestamp: number } }>): Promise<PromiseSettledResult<boolean>[]> {
  const wanted = new Map<string, Set<string>>();
  for (const it of items) if (!it.message.from_me) (wanted.get(it.orgId) ?? wanted.set(it.orgId, new Set()).get(it.orgId)!).add(it.chatId);
  const refs = new Map<string, { broadcast_id: string; rid: string; sent_at: number } | null>();
  const failedOrgs = new Map<string, unknown>();
  await Promise.all(
    [...wanted].map(async ([orgId, chats]) => {
      try {
        const ids = [...chats];
        for (let i = 0; i < ids.length; i += 100) {
          const res = await db()
            .entities.broadcastRef.get(ids.slice(i, i + 100).map((ref) => ({ org_id: orgId, kind: 'chat' as const, ref })))
            .go();
          if (res.unprocessed.length) throw new Error('broadcast refs not read (throttled); the queue retries');
          for (const r of res.data) refs.set(`${orgId}\u0000${r.ref}`, r);
        }
      } catch (e) {
        failedOrgs.set(orgId, e);
      }
    }),
  );
  return Promise.allSettled(
    items.map(async (it) => {
      if (it.message.from_me) return false;
      if (failedOrgs.has(it.orgId)) throw failedOrgs.get(it.orgId);
      return replyTo(it.orgId, refs.get(`${it.orgId}\u0000${it.chatId}`) ?? null, it.message);
    }),
  );
}

async function replyTo(orgId: string, ref: { broadcast_id: string; rid: string; sent_at: number } | null, message: { timestamp: number }): Promise<boolean> {
  if (!ref || message.timestamp < ref.sent_at || message.timestamp - ref.sent_at > REPLY_WINDOW_MS) return false;
  await writeTx((e) => [
    e.broadcastRecipient
      .patch({ org_id: orgId, broadcast_id: ref.broadcast_id, rid: ref.rid })
      .set({ replied_at: message.timestamp })
      .where((a, { notExists }) => notExists(a.replied_at))
      .commit() as TxItem,
    e.broadcast.patch({ org_id: orgId, broadcast_id: ref.broadcast_id }).add({ replied_count: 1 }).commit() as TxItem,
  ]);
  return true;
}
