import { ulid } from 'ulid';
import type { EntityItem } from 'electrodb';
import { db } from '../db/service.ts';
import { putAllRetrying } from '../db/batch-put.ts';
import { AppError } from '../errors.ts';
import { enqueue } from '../ports/commands.ts';
import { log } from '../log.ts';
import type { PublishInput } from '../../events/publish.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import { assertActiveMember } from '../member/member.ts';
import { canChangeChatAssignee } from '../chat/chat-access.rules.ts';
import { assignChats, closeChats, flagChats, labelChats, setChatsProperties } from '../chat/chat-workflow.ts';
import { assertPropertyValues, listProperties } from '../property/property.ts';
import { propertyValueKey } from '../property/property.rules.ts';
import { listChats } from '../chat/chat-list.ts';
import type { Actor } from '../auth/actor.ts';
import type { ChatBatchResult } from '../chat/chat.schemas.ts';
import type { BulkJobEntity, BulkJobItemEntity } from './bulk-job.entity.ts';
import { isFinished, undoProblem } from './bulk-job.rules.ts';
import {
  MAX_BULK_FILTER_CHATS,
  MAX_KEPT_FAILURES,
  UNDOABLE_ACTIONS,
  type BulkAction,
  type BulkChatFilter,
  type BulkFailure,
  type BulkJob,
  type BulkSelection,
  type CreateBulkJobInput,
} from './bulk-job.schemas.ts';
import { isConflictError } from '../db/retry.ts';
import { clearContactsPropertyPage } from '../contact/contact-properties.ts';

/**
 * Bulk jobs on chats (issue 4 part 11): one background path for every bulk action of the /list
 * page, whatever the size of the selection.
 *
 * - POST stores the job (and, for a list of ids, one BulkJobItem per chat) and enqueues step 0 on
 *   the `chat-bulk` command queue as `{ org_id, job_id, seq }`.
 * - A filter is first read to the end into BulkJobItem rows ('resolve' phase, 10 pages of 1,000 a
 *   step, through listChats as the job's creator sees it), and only then applied: applying e.g.
 *   'close' to the 'All' folder changes which chats the filter matches, so paging it while writing
 *   would skip chats.
 * - 'apply' steps take the next 200 items, write each chat's previous assignee and labels on its
 *   item (the undo record, before anything changes), call the chat workflow as the creator (role
 *   re-read from Member) and count what succeeded and failed, then enqueue the next step.
 * - Each step ends with one conditional write of the job (`step` must still be the message's
 *   `seq`), so a redelivered message never counts twice, and publishes `bulk_job.updated` (the
 *   realtime fan-out sends it to the creator only).
 * - Undo is a new job over the same items: assignees back to what they were, labels the job
 *   added removed again and labels it removed added back (other label changes made since stay).
 * Times are epoch **ms**; TTLs epoch **seconds**.
 */

type JobRow = EntityItem<typeof BulkJobEntity>;
type ItemRow = EntityItem<typeof BulkJobItemEntity>;

/** Chats per apply step (one chat workflow call). */
export const CHUNK_SIZE = 200;
/** listChats page size while reading a filter, and pages per resolve step. */
const RESOLVE_PAGE = 1000;
const RESOLVE_PAGES_PER_STEP = 10;
/** Jobs and their items are kept 30 days (TTL, seconds). */
const TTL_SECONDS = 30 * 24 * 60 * 60;
const GENERIC_FAILURE = 'Something went wrong while applying this bulk action. Please try again.';

const notFound = () => new AppError('bulk_job.not_found', 'That bulk action does not exist or you cannot see it.', { status: 404 });
const isConditionalFailure = isConflictError;

/** The wire shape of a stored job. */
export function toBulkJob(row: JobRow): BulkJob {
  const params = (row.params ?? {}) as BulkJob['params'];
  return {
    org_id: row.org_id,
    job_id: row.job_id,
    action: row.action,
    params: {
      ...(params.assigned_to !== undefined ? { assigned_to: params.assigned_to } : {}),
      ...(params.label_ids ? { label_ids: params.label_ids } : {}),
      ...(params.property_id ? { property_id: params.property_id } : {}),
      ...(params.property_value ? { property_value: params.property_value } : {}),
    },
    selection: row.selection as BulkSelection,
    status: row.status,
    total: row.total,
    processed: row.processed,
    succeeded: row.succeeded,
    failed_count: row.failed_count,
    failures: (row.failures ?? []) as BulkFailure[],
    error: row.error ?? null,
    created_by: row.created_by,
    created_at: row.created_at,
    finished_at: row.finished_at ?? null,
    undo_of: row.undo_of ?? null,
    undone_by_job: row.undone_by_job ?? null,
  };
}

/** Put item rows in batches, retrying what DynamoDB left unprocessed (shared/db/batch-put.ts). */
const putItems = (rows: ItemRow[]): Promise<void> => putAllRetrying(db().entities.bulkJobItem as never, rows, (r) => String((r as { chat_id: string }).chat_id), 'bulk job item(s)');

/**
 * Checks that do not depend on the chat, made once before the job is stored so a bad request is a
 * 400/403 now rather than 10,000 per-chat failures later.
 * @throws AppError 403 chat.assignee_forbidden; 400 with `params.assigned_to` / `params.label_ids`
 */
async function assertActionAllowed(actor: Actor, action: BulkAction, params: CreateBulkJobInput['params']): Promise<void> {
  if (action === 'assign') {
    const prefs = await getOrgPreferences(actor.org_id);
    if (!canChangeChatAssignee(prefs, { email: actor.email, role: actor.role })) throw new AppError('chat.assignee_forbidden', 'Only admins can change who a chat is assigned to in this workspace.', { status: 403 });
    if (params.assigned_to) await assertActiveMember(actor.org_id, params.assigned_to, 'params.assigned_to');
  }
  if (action === 'label' || action === 'unlabel') {
    const known = new Set((await db().entities.chatLabel.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' })).data.map((l) => l.label_id));
    const bad = (params.label_ids ?? []).find((l) => !known.has(l));
    if (bad) throw new AppError('validation', 'That label does not exist.', { details: [{ field: 'params.label_ids', reason: `unknown label ${bad}` }] });
  }
  if (action === 'set_property' || action === 'clear_property') {
    // the value checked against its definition (a clear only needs the definition): 400 params.property_value / params.property_id
    const id = params.property_id ?? '';
    try {
      if (!(await listProperties(actor.org_id)).some((d) => d.property_id === id)) throw new AppError('validation.failed', 'unknown property', { status: 400, details: [{ field: 'params.property_id', reason: 'is not a property of this workspace' }] });
      if (action === 'set_property') await assertPropertyValues(actor.org_id, { [id]: params.property_value ?? '' }, 'params');
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const reason = (e.details as Array<{ reason: string }> | undefined)?.[0]?.reason ?? e.message;
      const field = reason === 'is not a property of this workspace' ? 'params.property_id' : 'params.property_value';
      throw new AppError('validation.failed', `${field}: ${reason}`, { status: 400, details: [{ field, reason }] });
    }
  }
}

/**
 * Start a bulk job (POST /chats/bulk-jobs). Selections of any size, even one chat, take this path.
 * @param input validated CreateBulkJobInput: action, params, and chat_ids (≤ 10,000) or filter
 * @returns the stored job (status 'queued'); progress follows as `bulk_job.updated`
 * @throws AppError 400 (unknown label, assignee not a member), 403 (member may not change assignees)
 */
export async function createBulkJob(actor: Actor, input: CreateBulkJobInput): Promise<BulkJob> {
  await assertActionAllowed(actor, input.action, input.params);
  const now = Date.now();
  const expires_at = Math.floor(now / 1000) + TTL_SECONDS;
  const job_id = `job_${ulid()}`;
  let selection: BulkSelection;
  let total = 0;
  if (input.chat_ids) {
    const ids = [...new Set(input.chat_ids)];
    await putItems(ids.map((chat_id) => ({ org_id: actor.org_id, job_id, chat_id, expires_at })));
    selection = { kind: 'chat_ids', count: ids.length };
    total = ids.length;
  } else {
    selection = { kind: 'filter', filter: input.filter as BulkChatFilter };
  }
  const params = {
    ...(input.params.assigned_to !== undefined ? { assigned_to: input.params.assigned_to } : {}),
    ...(input.params.label_ids ? { label_ids: [...new Set(input.params.label_ids)] } : {}),
    ...(input.params.property_id ? { property_id: input.params.property_id } : {}),
    ...(input.action === 'set_property' && input.params.property_value ? { property_value: input.params.property_value } : {}),
  };
  return startJob(actor, job_id, now, { action: input.action, params, selection, phase: selection.kind === 'filter' ? 'resolve' : 'apply', total });
}

/**
 * Store a queued job row (no progress yet, kept TTL_SECONDS from `now`, epoch ms) created by `actor`,
 * and queue its first step on `chat-bulk`. Shared by bulk actions, undo and property clean-up.
 * @returns the job as the API shows it
 */
async function startJob(
  actor: Actor,
  job_id: string,
  now: number,
  job: { action: JobRow['action']; params: JobRow['params']; selection: BulkSelection; phase: 'resolve' | 'apply'; total: number; undo_of?: string },
): Promise<BulkJob> {
  const row = (
    await db()
      .entities.bulkJob.create({
        org_id: actor.org_id,
        job_id,
        ...job,
        status: 'queued',
        step: 0,
        processed: 0,
        succeeded: 0,
        failed_count: 0,
        failures: [],
        created_by: actor.email.toLowerCase(),
        created_at: now,
        expires_at: Math.floor(now / 1000) + TTL_SECONDS,
      })
      .go()
  ).data as JobRow;
  await enqueue('chat-bulk', { org_id: actor.org_id, job_id, seq: 0 });
  return toBulkJob(row);
}

/** A job the actor may see: its creator's, or any job of the org for an admin. @throws AppError 404 */
async function visibleJob(actor: Actor, jobId: string): Promise<JobRow> {
  const row = (await db().entities.bulkJob.get({ org_id: actor.org_id, job_id: jobId }).go()).data as JobRow | null;
  if (!row || (row.created_by !== actor.email.toLowerCase() && actor.role !== 'admin')) throw notFound();
  return row;
}

/**
 * GET /chats/bulk-jobs/{job_id}: a job and its progress (the polling fallback of the socket).
 * @throws AppError 404 for another org's job, or another member's job (admins see all)
 */
export async function getBulkJob(actor: Actor, jobId: string): Promise<BulkJob> {
  return toBulkJob(await visibleJob(actor, jobId));
}

/**
 * POST /chats/bulk-jobs/{job_id}/undo: start a job that puts back what an assign, label or
 * unlabel job changed (from its BulkJobItem rows). Once per job; by its creator or an admin.
 * @returns the new job (its `undo_of` is the original)
 * @throws AppError 404 (not visible), 409 bulk_job.not_undoable / already_undone / not_finished
 */
export async function undoBulkJob(actor: Actor, jobId: string): Promise<BulkJob> {
  const original = await visibleJob(actor, jobId);
  const problem = undoProblem(toBulkJob(original), { email: actor.email, role: actor.role });
  if (problem) throw new AppError(problem.code, problem.message, { status: problem.status });
  const job_id = `job_${ulid()}`;
  try {
    await db()
      .entities.bulkJob.patch({ org_id: actor.org_id, job_id: jobId })
      .set({ undone_by_job: job_id })
      .where((a, { notExists }) => notExists(a.undone_by_job))
      .go();
  } catch (e) {
    if (isConditionalFailure(e)) throw new AppError('bulk_job.already_undone', 'This bulk action has already been undone.', { status: 409 });
    throw e;
  }
  // total: chats the original reached (exact once done: the items that were applied)
  return startJob(actor, job_id, Date.now(), { action: original.action, params: original.params, selection: { kind: 'undo', job_id: jobId }, phase: 'apply', total: original.processed, undo_of: jobId });
}

// ---- processing (the chat-bulk consumer) ----------------------------------------------------

/** One message of the chat-bulk queue: run step `seq` of a job. */
export interface BulkStepCommand {
  org_id: string;
  job_id: string;
  seq: number;
}

/** What one step did, to be written on the job. */
interface StepOutcome {
  phase: 'resolve' | 'apply' | 'contacts';
  cursor: string | null;
  /** items added to the job (resolve) */
  added: number;
  processed: number;
  succeeded: number;
  failed: BulkFailure[];
  done: boolean;
}

/** The job's creator as an actor, with the role they have now. null: no longer an active member. */
async function creatorActor(job: JobRow): Promise<Actor | null> {
  const m = (await db().entities.member.get({ org_id: job.org_id, email: job.created_by }).go()).data;
  if (!m || m.is_active === false) return null;
  return { email: m.email, user_id: m.user_id ?? '', org_id: job.org_id, role: m.role };
}

/** Read up to 10 pages of the filter into items; the next step goes on reading or starts applying. */
async function resolveStep(job: JobRow, actor: Actor): Promise<StepOutcome> {
  if ((job.selection as BulkSelection).kind === 'property') return resolvePropertyStep(job);
  const filter = (job.selection as Extract<BulkSelection, { kind: 'filter' }>).filter;
  const expires_at = job.expires_at;
  let cursor: string | null = job.cursor ?? null;
  let added = 0;
  for (let i = 0; i < RESOLVE_PAGES_PER_STEP; i++) {
    const room = MAX_BULK_FILTER_CHATS - job.total - added;
    const page = await listChats(actor, { ...filter, limit: RESOLVE_PAGE, ...(cursor ? { cursor } : {}) });
    const ids = [...new Set(page.chats.map((c) => c.chat_id))].slice(0, room);
    await putItems(ids.map((chat_id) => ({ org_id: job.org_id, job_id: job.job_id, chat_id, expires_at })));
    added += ids.length;
    cursor = page.cursor;
    if (!cursor || added >= MAX_BULK_FILTER_CHATS - job.total) {
      cursor = null;
      break;
    }
  }
  return { phase: cursor ? 'resolve' : 'apply', cursor, added, processed: 0, succeeded: 0, failed: [], done: false };
}

/**
 * Resolve step of a definition job (selection kind 'property'): up to 10 pages of 1,000 of the
 * property's ChatPropertyLink rows (gsi3: one Query per page, never a scan) into items.
 */
async function resolvePropertyStep(job: JobRow): Promise<StepOutcome> {
  const sel = job.selection as Extract<BulkSelection, { kind: 'property' }>;
  const q = db().entities.chatPropertyLink.query.byProperty({ org_id: job.org_id, property_id: sel.property_id, ...(sel.value_key ? { value_key: sel.value_key } : {}) });
  let cursor: string | null = job.cursor ?? null;
  let added = 0;
  for (let i = 0; i < RESOLVE_PAGES_PER_STEP; i++) {
    const page = await q.go({ limit: RESOLVE_PAGE, pages: 1, ...(cursor ? { cursor } : {}) });
    const ids = [...new Set(page.data.map((r) => r.chat_id))];
    await putItems(ids.map((chat_id) => ({ org_id: job.org_id, job_id: job.job_id, chat_id, expires_at: job.expires_at })));
    added += ids.length;
    cursor = page.cursor ?? null;
    if (!cursor) break;
  }
  return { phase: cursor ? 'resolve' : 'apply', cursor, added, processed: 0, succeeded: 0, failed: [], done: false };
}

/**
 * Start the background job that clears a custom property's values on every chat and contact
 * carrying it (issue 15 item 4: a definition deleted), or only the value `value` (a dropdown option
 * removed): a 'clear_property' bulk job (progress as `bulk_job.updated` to `actor`, GET
 * /chats/bulk-jobs/{job_id}) whose chats come from the property's link rows, then (phase
 * 'contacts') its contacts from their facet rows. A chat or contact whose value changed meanwhile
 * is left alone (only the stored `value` is cleared).
 * @returns the job
 */
export async function startPropertyCleanup(actor: Actor, propertyId: string, value?: string): Promise<BulkJob> {
  return startJob(actor, `job_${ulid()}`, Date.now(), {
    action: 'clear_property',
    params: { property_id: propertyId, ...(value !== undefined ? { property_value: value } : {}) },
    selection: { kind: 'property', property_id: propertyId, ...(value !== undefined ? { value_key: propertyValueKey(value) } : {}) },
    phase: 'resolve',
    total: 0,
  });
}

/** Apply the job's action to some chats as `actor`; a refusal of the whole call fails each chat with its message. */
async function applyAction(actor: Actor, action: BulkAction, ids: string[], run: () => Promise<ChatBatchResult>): Promise<{ succeeded: number; failed: BulkFailure[] }> {
  if (!ids.length) return { succeeded: 0, failed: [] };
  try {
    const r = await run();
    return { succeeded: ids.length - r.failed.length, failed: r.failed };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    log('info', 'bulk_job.chunk_refused', { action, actor: actor.email, code: e.code });
    return { succeeded: 0, failed: ids.map((chat_id) => ({ chat_id, reason: e.message })) };
  }
}

/** The workflow call of an action (forward jobs). */
function forward(actor: Actor, job: JobRow, ids: string[]): Promise<ChatBatchResult> {
  const params = (job.params ?? {}) as { assigned_to?: string | null; label_ids?: string[]; property_id?: string; property_value?: string };
  switch (job.action) {
    case 'set_property':
      return setChatsProperties(actor, ids, { [params.property_id ?? '']: params.property_value ?? '' });
    case 'clear_property':
      // a definition job clearing one removed option carries that value: other values are kept
      return setChatsProperties(actor, ids, { [params.property_id ?? '']: '' }, params.property_value ? (_id, stored) => propertyValueKey(stored) === propertyValueKey(params.property_value) : undefined);
    case 'assign':
      return assignChats(actor, ids, params.assigned_to ?? null);
    case 'label':
      return labelChats(actor, ids, { add: params.label_ids ?? [] });
    case 'unlabel':
      return labelChats(actor, ids, { remove: params.label_ids ?? [] });
    case 'close':
    case 'reopen':
      return closeChats(actor, ids, job.action === 'close', 'all');
    case 'archive':
    case 'unarchive':
      return flagChats(actor, ids, 'is_archived', job.action === 'archive');
    case 'mute':
    case 'unmute':
      return flagChats(actor, ids, 'is_muted', job.action === 'mute');
  }
}

/** Keep each chat's assignee and labels on its item before the chunk changes them (only items not yet captured: a retried step must not record its own writes). */
async function captureUndo(job: JobRow, items: ItemRow[]): Promise<void> {
  const todo = items.filter((i) => i.captured_at === undefined);
  if (!todo.length) return;
  const got = await db()
    .entities.chat.get(todo.map((i) => ({ org_id: job.org_id, chat_id: i.chat_id })))
    .go({ concurrency: 4, attributes: ['chat_id', 'assigned_to', 'label_ids'] });
  const chats = new Map((got.data as Array<{ chat_id: string; assigned_to?: string; label_ids?: string[] }>).map((c) => [c.chat_id, c]));
  const now = Date.now();
  await putItems(
    todo.map((i) => {
      const c = chats.get(i.chat_id);
      return {
        org_id: i.org_id,
        job_id: i.job_id,
        chat_id: i.chat_id,
        expires_at: i.expires_at,
        captured_at: now,
        ...(c?.assigned_to ? { prev_assigned_to: c.assigned_to } : {}),
        ...(c?.label_ids ? { prev_label_ids: c.label_ids } : {}),
      };
    }),
  );
}

/** Group chat ids by a key (one workflow call per group). */
function groupBy<T>(items: ItemRow[], keyOf: (i: ItemRow) => { key: string; value: T } | null): Array<{ value: T; ids: string[] }> {
  const groups = new Map<string, { value: T; ids: string[] }>();
  for (const i of items) {
    const k = keyOf(i);
    if (!k) continue;
    if (!groups.has(k.key)) groups.set(k.key, { value: k.value, ids: [] });
    groups.get(k.key)!.ids.push(i.chat_id);
  }
  return [...groups.values()];
}

/** Put back what the original job changed on these (captured) items. */
async function undoChunk(actor: Actor, job: JobRow, items: ItemRow[]): Promise<{ succeeded: number; failed: BulkFailure[] }> {
  const labels = ((job.params ?? {}) as { label_ids?: string[] }).label_ids ?? [];
  let calls: Array<{ ids: string[]; run: () => Promise<ChatBatchResult> }>;
  let unchanged = 0;
  if (job.action === 'assign') {
    calls = groupBy(items, (i) => ({ key: i.prev_assigned_to ?? '', value: i.prev_assigned_to ?? null })).map((g) => ({ ids: g.ids, run: () => assignChats(actor, g.ids, g.value) }));
  } else {
    // label: take off the labels the job added (the chat did not have them); unlabel: put back the ones it removed
    const groups = groupBy(items, (i) => {
      const prev = i.prev_label_ids ?? [];
      const change = labels.filter((l) => (job.action === 'label' ? !prev.includes(l) : prev.includes(l)));
      if (!change.length) {
        unchanged++;
        return null;
      }
      return { key: change.join(','), value: change };
    });
    calls = groups.map((g) => ({ ids: g.ids, run: () => labelChats(actor, g.ids, job.action === 'label' ? { remove: g.value } : { add: g.value }) }));
  }
  let succeeded = unchanged;
  const failed: BulkFailure[] = [];
  for (const c of calls) {
    const r = await applyAction(actor, job.action, c.ids, c.run);
    succeeded += r.succeeded;
    failed.push(...r.failed);
  }
  return { succeeded, failed };
}

/** Apply the action to the next (up to) 200 items. */
async function applyStep(job: JobRow, actor: Actor): Promise<StepOutcome> {
  const selection = job.selection as BulkSelection;
  const itemsOf = selection.kind === 'undo' ? selection.job_id : job.job_id;
  const page = await db()
    .entities.bulkJobItem.query.byJob({ org_id: job.org_id, job_id: itemsOf })
    .go({ limit: CHUNK_SIZE, pages: 1, ...(job.cursor ? { cursor: job.cursor } : {}) });
  const items = page.data as ItemRow[];
  let r: { succeeded: number; failed: BulkFailure[] };
  let processed = items.length;
  if (selection.kind === 'undo') {
    // items never captured were never applied: nothing to undo
    const applied = items.filter((i) => i.captured_at !== undefined);
    processed = applied.length;
    r = await undoChunk(actor, job, applied);
  } else {
    if (UNDOABLE_ACTIONS.includes(job.action)) await captureUndo(job, items);
    const ids = items.map((i) => i.chat_id);
    r = await applyAction(actor, job.action, ids, () => forward(actor, job, ids));
  }
  // a definition job goes on with the contacts carrying the property once its chats are done (issue 15)
  if (!page.cursor && selection.kind === 'property') return { phase: 'contacts', cursor: null, added: 0, processed, succeeded: r.succeeded, failed: r.failed, done: false };
  return { phase: 'apply', cursor: page.cursor ?? null, added: 0, processed, succeeded: r.succeeded, failed: r.failed, done: !page.cursor };
}

/**
 * A definition job's contacts (phase 'contacts', issue 15 item 4): clear the property's value, or the
 * removed option, on the next page of contacts carrying it (shared/contact/contact-properties.ts:
 * their facet rows, never a scan). `total` grows by each page read (exact once done); a contact
 * that could not be written is a failure `{ chat_id: 'contact:<contact_id>', reason }`.
 */
async function contactsStep(job: JobRow): Promise<StepOutcome> {
  const sel = job.selection as Extract<BulkSelection, { kind: 'property' }>;
  const params = (job.params ?? {}) as { property_value?: string };
  const r = await clearContactsPropertyPage(job.org_id, job.created_by, sel.property_id, sel.value_key !== undefined ? (params.property_value ?? sel.value_key) : undefined, job.cursor ?? null);
  const failed = r.failed.map((f) => ({ chat_id: `contact:${f.contact_id}`, reason: f.reason }));
  return { phase: 'contacts', cursor: r.cursor, added: r.processed, processed: r.processed, succeeded: r.succeeded, failed, done: !r.cursor };
}

/**
 * Write a step's outcome on the job, only if the job is still at `job.step` (else another delivery
 * of the same message got there first). @returns the updated job, or null when it lost that race
 */
async function commitStep(job: JobRow, o: StepOutcome): Promise<JobRow | null> {
  const processed = job.processed + o.processed;
  const set = {
    step: job.step + 1,
    phase: o.phase,
    status: o.done ? ('done' as const) : ('running' as const),
    processed,
    succeeded: job.succeeded + o.succeeded,
    failed_count: job.failed_count + o.failed.length,
    failures: [...((job.failures ?? []) as BulkFailure[]), ...o.failed].slice(0, MAX_KEPT_FAILURES),
    // exact once done: the items actually gone through (a chat can move between filter pages and be read twice)
    total: o.done ? processed : job.total + o.added,
    ...(o.cursor ? { cursor: o.cursor } : {}),
    ...(o.done ? { finished_at: Date.now() } : {}),
  };
  const next = { ...job, ...set } as JobRow;
  if (!o.cursor) delete next.cursor;
  // the job's new state and its event in one transaction (the outbox); cancelled = another delivery won
  const ok = await commitWithEvents((e) => {
    const base = e.bulkJob.patch({ org_id: job.org_id, job_id: job.job_id }).set(set);
    const q = o.cursor ? base : base.remove(['cursor']);
    return { items: [q.where((a, { eq }) => eq(a.step, job.step)).commit() as TxItem], events: [jobEvent(next)] };
  });
  return ok ? next : null;
}

/** Mark a job failed (no more steps) and tell its creator (the event in the same transaction). */
async function failJob(job: JobRow, reason: string): Promise<void> {
  const set = { status: 'failed' as const, error: reason, finished_at: Date.now(), step: job.step + 1 };
  await commitWithEvents((e) => ({
    items: [
      e.bulkJob
        .patch({ org_id: job.org_id, job_id: job.job_id })
        .set(set)
        .where((a, { eq }) => eq(a.step, job.step))
        .commit() as TxItem,
    ],
    events: [jobEvent({ ...job, ...set } as JobRow)],
  }));
}

/** The `bulk_job.updated` event of a job state (id deterministic per step). */
const jobEvent = (row: JobRow): PublishInput => ({ name: 'bulk_job.updated', properties: { org_id: row.org_id, job: toBulkJob(row) }, actor: `user:${row.created_by}`, id: `bulk_job.updated:${row.job_id}:${row.step}` });

const enqueueStep = (row: JobRow) => enqueue('chat-bulk', { org_id: row.org_id, job_id: row.job_id, seq: row.step } satisfies BulkStepCommand);

/**
 * Run one step of a bulk job (the chat-bulk consumer). Idempotent under redelivery: a step whose
 * `seq` the job has passed is dropped (or, on a retry of exactly the previous step, the next step
 * is enqueued again in case that send was what failed).
 * @param attempt 1-based delivery attempt; on the last one (`maxAttempts`) an unexpected error
 *   fails the job instead of being thrown for a retry
 * @throws unexpected errors (the queue retries the step)
 */
export async function runBulkStep(cmd: BulkStepCommand, attempt = 1, maxAttempts = 5): Promise<'done' | 'next' | 'skipped'> {
  const job = (await db().entities.bulkJob.get({ org_id: cmd.org_id, job_id: cmd.job_id }).go()).data as JobRow | null;
  if (!job || isFinished(job)) return 'skipped';
  if (job.step !== cmd.seq) {
    if (job.step === cmd.seq + 1 && attempt > 1) await enqueueStep(job);
    return 'skipped';
  }
  const actor = await creatorActor(job);
  if (!actor) {
    await failJob(job, `${job.created_by} is no longer a member of this workspace.`);
    return 'done';
  }
  let outcome: StepOutcome;
  try {
    outcome = job.phase === 'resolve' ? await resolveStep(job, actor) : job.phase === 'contacts' ? await contactsStep(job) : await applyStep(job, actor);
  } catch (e) {
    log('error', 'bulk_job.step_failed', { org_id: job.org_id, job_id: job.job_id, step: job.step, attempt, error: String((e as Error)?.stack ?? e) });
    if (attempt < maxAttempts) throw e;
    await failJob(job, GENERIC_FAILURE);
    return 'done';
  }
  const updated = await commitStep(job, outcome);
  if (!updated) return 'skipped';
  if (isFinished(updated)) return 'done';
  await enqueueStep(updated);
  return 'next';
}
