import { Entity } from 'electrodb';
import { BULK_ACTIONS, BULK_JOB_STATUSES } from './bulk-job.schemas.ts';

/**
 * A bulk action on chats running in the background (issue 4 part 11). Keyed by org, `job_id` =
 * 'job_' + ULID. The chats it applies to are BulkJobItem rows (one per chat, also the undo record),
 * so the job item stays small however many chats are selected (a 10,000-id list would not fit the
 * 400 KB item limit). `step` counts the queue steps done (resolve pages, then chunks of chats): a
 * step updates the counters only when `step` still equals the message's `seq`, so a redelivered
 * message never counts twice. `cursor` / `phase` are where the next step starts.
 * Times are epoch **ms**; `expires_at` is the table's TTL, epoch **seconds** (30 days).
 */
export const BulkJobEntity = new Entity({
  model: { entity: 'bulkJob', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    job_id: { type: 'string', required: true },
    action: { type: BULK_ACTIONS, required: true },
    /** { assigned_to?: string | null, label_ids?: string[] } */
    params: { type: 'any', required: true },
    /** { kind: 'chat_ids', count } | { kind: 'filter', filter } | { kind: 'undo', job_id } */
    selection: { type: 'any', required: true },
    status: { type: BULK_JOB_STATUSES, required: true },
    /** 'resolve' (reading a filter's chats into items) then 'apply' (chunks of items); a definition job (selection 'property') then 'contacts' (issue 15: the contacts carrying the property, from their facet rows) */
    phase: { type: ['resolve', 'apply', 'contacts'] as const, required: true },
    /** where the next step starts: listChats cursor (resolve), the items Query cursor (apply) or the contact facet Query cursor (contacts) */
    cursor: { type: 'string' },
    step: { type: 'number', required: true, default: 0 },
    total: { type: 'number', required: true, default: 0 },
    processed: { type: 'number', required: true, default: 0 },
    succeeded: { type: 'number', required: true, default: 0 },
    failed_count: { type: 'number', required: true, default: 0 },
    /** the first 200 { chat_id, reason } */
    failures: { type: 'any', required: true, default: () => [] },
    /** why the whole job failed */
    error: { type: 'string' },
    /** member email */
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    finished_at: { type: 'number' },
    undo_of: { type: 'string' },
    undone_by_job: { type: 'string' },
    /** TTL, epoch seconds */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    // a job by id (GET, the consumer); jobs of an org
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['job_id'] } },
  },
});

/**
 * One chat of a bulk job: written when the selection is stored (chat ids) or read (filter), and
 * given the chat's previous assignee and labels (`captured_at` set) just before its chunk is
 * applied, which is what undo restores. Keyed by org + job, sorted by chat_id.
 * `captured_at` epoch **ms**; `expires_at` TTL epoch **seconds** (30 days).
 */
export const BulkJobItemEntity = new Entity({
  model: { entity: 'bulkJobItem', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    job_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    /** the chat's assigned_to before the job (absent: unassigned) */
    prev_assigned_to: { type: 'string' },
    /** the chat's label_ids before the job */
    prev_label_ids: { type: 'list', items: { type: 'string' } },
    /** epoch ms when the previous values were read (absent: the chunk was never applied) */
    captured_at: { type: 'number' },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    // chats of a job in chat_id order (chunks, undo)
    byJob: { pk: { field: 'pk', composite: ['org_id', 'job_id'] }, sk: { field: 'sk', composite: ['chat_id'] } },
  },
});
