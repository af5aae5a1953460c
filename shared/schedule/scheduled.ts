import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import { log } from '../log.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { isConflictError } from '../db/retry.ts';
import { schedulerPort, scheduleName } from '../ports/scheduler.ts';
import { getOrgClock } from '../org/org-clock.ts';
import { sendMessage } from '../inbox/send.ts';
import { resolveTemplateSend } from '../template/template-send.ts';
import { windowState } from '../template/template.rules.ts';
import type { TemplateRef } from '../template/template.schemas.ts';
import { badCursor } from '../db/paging.ts';
import { describeRecurrence, nextOccurrence, type Recurrence } from './recurrence.rules.ts';
import type { CreateScheduledInput, ListScheduledQuery, ScheduledMessageView, UpdateScheduledInput } from './scheduled.schemas.ts';

/**
 * Scheduled messages (issue 16 item 6; spec §2 settings/scheduled, open to members): members
 * manage their own, admins all. Each active one has exactly one wake-up armed on the scheduler port
 * (EventBridge Scheduler in AWS, the local file-backed timers in `npm start`) for `next_at`, onto
 * the `scheduled-messages` queue. The consumer (fireScheduled) claims the occurrence with a
 * conditional update on `next_at` (a duplicate or stale wake-up does nothing), then sends as the
 * member through the normal send path (shared/inbox/send.ts): text while the 24-hour window is open,
 * the chosen template when it is closed, or the text anyway, which then fails in the thread with
 * WhatsApp's reason (131047) when no template was chosen.
 */

export const SCHEDULED_QUEUE = 'scheduled-messages' as const;

type Row = {
  org_id: string;
  schedule_id: string;
  chat_id: string;
  chat_name?: string;
  created_by: string;
  body?: string;
  template?: unknown;
  recurrence: unknown;
  status: 'active' | 'paused' | 'done';
  next_at?: number;
  occurrences: number;
  last_run?: unknown;
  created_at: number;
  updated_at: number;
};

const wakeName = (orgId: string, scheduleId: string) => scheduleName('smsg', orgId, scheduleId);

function toView(r: Row, tz: string): ScheduledMessageView {
  const rec = r.recurrence as Recurrence;
  return {
    schedule_id: r.schedule_id,
    chat_id: r.chat_id,
    chat_name: r.chat_name ?? null,
    created_by: r.created_by,
    body: r.body ?? null,
    template: (r.template as TemplateRef | undefined) ?? null,
    recurrence: rec,
    summary: describeRecurrence(rec),
    status: r.status,
    next_at: r.next_at ?? null,
    occurrences: r.occurrences ?? 0,
    last_run: (r.last_run as ScheduledMessageView['last_run']) ?? null,
    time_zone: tz,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

async function arm(orgId: string, scheduleId: string, at: number): Promise<void> {
  await (await schedulerPort()).schedule({ name: wakeName(orgId, scheduleId), at, queue: SCHEDULED_QUEUE, body: JSON.stringify({ org_id: orgId, schedule_id: scheduleId, at }) });
}
async function disarm(orgId: string, scheduleId: string): Promise<void> {
  await (await schedulerPort()).cancel(wakeName(orgId, scheduleId));
}

/** One of the actor's (admins: any of the org's) scheduled messages, or 404. */
async function own(actor: Actor, scheduleId: string): Promise<Row> {
  const r = (await db().entities.scheduledMessage.get({ org_id: actor.org_id, schedule_id: scheduleId }).go()).data as Row | null;
  if (!r || (actor.role !== 'admin' && r.created_by !== actor.email)) throw notFound('scheduled message');
  return r;
}

/** Check content against the chat's phone: a template must be a synced, approved template of it with every value. */
async function checkContent(orgId: string, phoneId: string, template: TemplateRef | null | undefined): Promise<void> {
  if (template) await resolveTemplateSend(orgId, phoneId, template);
}

/**
 * Schedule a message into a chat (chat access checked by the handler's guard on `chat_id`).
 * @param now epoch ms (injected clock in tests)
 * @throws AppError 404 chat.not_found; 400 scheduled.in_the_past (no occurrence after now, field
 *   `recurrence`); the template 400s of resolveTemplateSend
 */
export async function createScheduled(actor: Actor, input: CreateScheduledInput, now = Date.now()): Promise<ScheduledMessageView> {
  const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: input.chat_id }).go()).data;
  if (!chat) throw notFound('chat');
  await checkContent(actor.org_id, chat.phone_id, input.template);
  const { time_zone: tz } = await getOrgClock(actor.org_id);
  const next = nextOccurrence(input.recurrence, tz, now, 0);
  if (next == null) throw new AppError('scheduled.in_the_past', 'recurrence: has no time after now', { details: [{ field: 'recurrence', reason: 'has no time after now' }] });
  const row = {
    org_id: actor.org_id,
    schedule_id: ulid(now),
    chat_id: input.chat_id,
    ...(chat.chat_name ? { chat_name: chat.chat_name } : {}),
    created_by: actor.email,
    ...(input.body !== undefined ? { body: input.body } : {}),
    ...(input.template ? { template: input.template } : {}),
    recurrence: input.recurrence,
    status: 'active' as const,
    next_at: next,
    occurrences: 0,
  };
  const created = (await db().entities.scheduledMessage.create(row).go()).data as Row;
  await arm(actor.org_id, created.schedule_id, next);
  return toView(created, tz);
}

/**
 * A page of scheduled messages, newest first: a member's own; admins the org's (`scope=mine`: their own).
 */
export async function listScheduled(actor: Actor, q: ListScheduledQuery): Promise<{ scheduled: ScheduledMessageView[]; cursor: string | null; time_zone: string }> {
  const { time_zone: tz } = await getOrgClock(actor.org_id);
  const opts = { cursor: q.cursor ?? null, limit: q.limit ?? 50, order: 'desc' as const };
  const bad = (e: unknown): never => {
    // DynamoDB refuses a start key that is not of this partition
    if (q.cursor) throw badCursor();
    throw e;
  };
  const res =
    actor.role === 'admin' && q.scope !== 'mine'
      ? await db().entities.scheduledMessage.query.byOrg({ org_id: actor.org_id }).go(opts).catch(bad)
      : await db().entities.scheduledMessage.query.byCreator({ org_id: actor.org_id, created_by: actor.email }).go(opts).catch(bad);
  return { scheduled: (res.data as Row[]).map((r) => toView(r, tz)), cursor: res.cursor ?? null, time_zone: tz };
}

/**
 * Edit content or recurrence, pause or resume. A new recurrence (or resuming) re-arms from now.
 * @throws AppError 404 (not the member's); 400 scheduled.in_the_past; 400 scheduled.done (a finished one cannot resume)
 */
export async function updateScheduled(actor: Actor, scheduleId: string, input: UpdateScheduledInput, now = Date.now()): Promise<ScheduledMessageView> {
  const r = await own(actor, scheduleId);
  const { time_zone: tz } = await getOrgClock(actor.org_id);
  if (input.template) {
    const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: r.chat_id }).go()).data;
    if (!chat) throw notFound('chat');
    await checkContent(actor.org_id, chat.phone_id, input.template);
  }
  const body = input.body !== undefined ? input.body : r.body;
  const template = input.template !== undefined ? input.template : (r.template as TemplateRef | undefined);
  if (body === undefined && !template) throw new AppError('validation.failed', 'body: is required (or a template)', { details: [{ field: 'body', reason: 'is required (or a template)' }] });
  const recurrence = input.recurrence ?? (r.recurrence as Recurrence);
  const status = input.status ?? (r.status === 'done' && input.recurrence ? 'active' : r.status);
  if (status === 'active' && r.status === 'done' && !input.recurrence) throw new AppError('scheduled.done', 'This scheduled message has finished; give it a new time to use it again.', { details: [{ field: 'status', reason: 'has finished' }] });
  let next = r.next_at ?? null;
  let occurrences = r.occurrences ?? 0;
  if (input.recurrence) occurrences = 0;
  if (input.recurrence || (status === 'active' && r.status !== 'active')) {
    next = nextOccurrence(recurrence, tz, now, occurrences);
    if (next == null) throw new AppError('scheduled.in_the_past', 'recurrence: has no time after now', { details: [{ field: 'recurrence', reason: 'has no time after now' }] });
  }
  const set: Record<string, unknown> = { recurrence, status, occurrences };
  if (body !== undefined) set.body = body;
  if (template) set.template = template;
  const patch = db().entities.scheduledMessage.patch({ org_id: actor.org_id, schedule_id: scheduleId }).set({ ...set, ...(next != null ? { next_at: next } : {}) } as never);
  const removals: Array<'template' | 'body'> = [];
  if (input.template === null) removals.push('template');
  const updated = (await (removals.length ? patch.remove(removals) : patch).go({ response: 'all_new' })).data as unknown as Row;
  if (status === 'active' && next != null) await arm(actor.org_id, scheduleId, next);
  else await disarm(actor.org_id, scheduleId);
  return toView(updated, tz);
}

/**
 * Skip the next occurrence: it counts as used (for "after N times") and the wake-up moves to the
 * one after; skipping the last one finishes the schedule.
 * @throws AppError 404; 400 scheduled.not_active (paused or done)
 */
export async function skipNext(actor: Actor, scheduleId: string, now = Date.now()): Promise<ScheduledMessageView> {
  const r = await own(actor, scheduleId);
  if (r.status !== 'active' || r.next_at == null) throw new AppError('scheduled.not_active', 'Only an active scheduled message has a next time to skip.', { details: [{ field: 'status', reason: `is ${r.status}` }] });
  const { time_zone: tz } = await getOrgClock(actor.org_id);
  const occurrences = (r.occurrences ?? 0) + 1;
  const next = nextOccurrence(r.recurrence as Recurrence, tz, Math.max(r.next_at, now), occurrences);
  const last_run = { at: r.next_at, outcome: 'skipped' as const, reason: `Skipped by ${actor.email}` };
  const patch = db().entities.scheduledMessage.patch({ org_id: actor.org_id, schedule_id: scheduleId }).set({ occurrences, last_run, status: next == null ? 'done' : 'active', ...(next != null ? { next_at: next } : {}) });
  const updated = (await (next == null ? patch.remove(['next_at']) : patch).go({ response: 'all_new' })).data as unknown as Row;
  if (next != null) await arm(actor.org_id, scheduleId, next);
  else await disarm(actor.org_id, scheduleId);
  return toView(updated, tz);
}

/** Delete a scheduled message and its wake-up. @throws AppError 404 */
export async function deleteScheduled(actor: Actor, scheduleId: string): Promise<void> {
  await own(actor, scheduleId);
  await db().entities.scheduledMessage.delete({ org_id: actor.org_id, schedule_id: scheduleId }).go();
  await disarm(actor.org_id, scheduleId);
}

/**
 * The scheduler's wake-up (scheduled-messages queue): claim occurrence `at` (stale or duplicate
 * wake-ups, paused or deleted schedules do nothing), move to the next occurrence and arm it, then
 * send as the member who scheduled it. Sending never throws back to the queue (the occurrence is
 * claimed: a retry must not send twice); its outcome is kept in `last_run`.
 * @returns what happened
 */
export async function fireScheduled(orgId: string, scheduleId: string, at: number, now = Date.now()): Promise<'sent' | 'failed' | 'stale'> {
  const r = (await db().entities.scheduledMessage.get({ org_id: orgId, schedule_id: scheduleId }).go()).data as Row | null;
  if (!r || r.status !== 'active' || r.next_at !== at) return 'stale';
  const { time_zone: tz } = await getOrgClock(orgId);
  const occurrences = (r.occurrences ?? 0) + 1;
  const next = nextOccurrence(r.recurrence as Recurrence, tz, Math.max(at, now), occurrences);
  try {
    const patch = db()
      .entities.scheduledMessage.patch({ org_id: orgId, schedule_id: scheduleId })
      .set({ occurrences, status: next == null ? 'done' : 'active', last_run: { at: now, outcome: 'sent', reason: 'Sending…' }, ...(next != null ? { next_at: next } : {}) });
    await (next == null ? patch.remove(['next_at']) : patch).where(({ next_at, status }, { eq }) => `${eq(next_at, at)} AND ${eq(status, 'active')}`).go();
  } catch (e) {
    if (isConflictError(e)) return 'stale';
    throw e;
  }
  if (next != null) await arm(orgId, scheduleId, next);
  let outcome: { outcome: 'sent' | 'failed'; reason: string | null; unique_id: string | null };
  try {
    outcome = await sendAsMember(r, now);
  } catch (e) {
    const reason = e instanceof AppError ? e.message : 'Chorus could not send this scheduled message.';
    if (!(e instanceof AppError)) log('error', 'scheduled.send_failed', { org_id: orgId, schedule_id: scheduleId, error: String((e as Error)?.message ?? e) });
    outcome = { outcome: 'failed', reason, unique_id: null };
  }
  await db()
    .entities.scheduledMessage.patch({ org_id: orgId, schedule_id: scheduleId })
    .set({ last_run: { at: now, ...outcome } })
    .go()
    .catch(() => undefined);
  return outcome.outcome;
}

/** Send one occurrence as its member, through the normal send path. */
async function sendAsMember(r: Row, now: number): Promise<{ outcome: 'sent' | 'failed'; reason: string | null; unique_id: string | null }> {
  const member = (await db().entities.member.get({ org_id: r.org_id, email: r.created_by }).go()).data;
  if (!member || member.is_active === false) return { outcome: 'failed', reason: `${r.created_by} is no longer a member of this workspace.`, unique_id: null };
  const actor: Actor = { email: r.created_by, user_id: member.user_id ?? r.created_by, org_id: r.org_id, role: member.role };
  const guard = await chatGuard(actor);
  const chat = await guard.requireChat(r.chat_id);
  const phone = (await db().entities.phone.get({ org_id: r.org_id, phone_id: chat.phone_id }).go()).data;
  const cloud = phone?.connection_type !== 'wa_web';
  const win = windowState({ last_customer_message_at: (chat.last_customer_message_at as Record<string, number> | undefined) ?? null, org_phone: chat.org_phone }, now);
  const template = r.template as TemplateRef | undefined;
  const useTemplate = cloud && template && (r.body === undefined || (!win.open && chat.chat_type === 'user'));
  if (useTemplate) {
    const { snapshot, preview } = await resolveTemplateSend(r.org_id, chat.phone_id, template);
    const m = await sendMessage(actor, r.chat_id, { body: preview }, { template: snapshot });
    return { outcome: 'sent', reason: null, unique_id: m.unique_id };
  }
  if (r.body === undefined) return { outcome: 'failed', reason: 'Templates cannot be sent from a WhatsApp Web number.', unique_id: null };
  // a closed window without a template: the text goes the normal way and fails in the thread with WhatsApp's reason (131047)
  const m = await sendMessage(actor, r.chat_id, { body: r.body });
  const closed = cloud && chat.chat_type === 'user' && !win.open;
  return closed
    ? { outcome: 'failed', reason: 'The 24-hour window was closed and no template was chosen for that case.', unique_id: m.unique_id }
    : { outcome: 'sent', reason: null, unique_id: m.unique_id };
}
