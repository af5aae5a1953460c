import { z } from 'zod';
import { ListChatsQuery } from '../chat/chat.schemas.ts';

/**
 * Bulk actions on chats (issue 4 part 11, the /list page): API contracts, browser-safe.
 * A bulk job applies one chat workflow action to a selection (chat ids, or every chat matching a
 * list filter) in the background, chunk by chunk, and reports progress as `bulk_job.updated`.
 * Times are epoch **ms**.
 */

export const BULK_ACTIONS = ['assign', 'label', 'unlabel', 'close', 'reopen', 'archive', 'unarchive', 'mute', 'unmute', 'set_property', 'clear_property'] as const;
export const BulkAction = z.enum(BULK_ACTIONS, { errorMap: () => ({ message: `must be one of ${BULK_ACTIONS.join(', ')}` }) });
export type BulkAction = z.infer<typeof BulkAction>;

/** Actions whose previous values are kept per chat so the job can be undone (assignee, labels). */
export const UNDOABLE_ACTIONS: readonly BulkAction[] = ['assign', 'label', 'unlabel'];
/** Actions on one custom property (issue 15 item 4): `params.property_id`, and `params.property_value` for 'set_property'. */
export const PROPERTY_ACTIONS: readonly BulkAction[] = ['set_property', 'clear_property'];

export const BULK_JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type BulkJobStatus = (typeof BULK_JOB_STATUSES)[number];

/** At most this many chat ids in one request (`chat_ids`). */
export const MAX_BULK_CHAT_IDS = 10_000;
/** At most this many chats resolved from a filter (the export's row cap, too). */
export const MAX_BULK_FILTER_CHATS = 100_000;
/** Failures kept on a job (the first ones; `failed_count` counts them all). */
export const MAX_KEPT_FAILURES = 200;

/** A list filter as GET /chats takes it, without paging (state defaults to 'open' = 'All'). */
export const BulkChatFilter = ListChatsQuery.omit({ cursor: true, limit: true });
export type BulkChatFilter = z.infer<typeof BulkChatFilter>;

const emailOrNull = z
  .string({ invalid_type_error: 'must be a member email or null' })
  .trim()
  .toLowerCase()
  .email('must be an email address')
  .nullable();
const labelIds = z.array(z.string().min(1, 'must not be empty').max(100, 'is too long'), { invalid_type_error: 'must be a list of label ids' }).min(1, 'must name at least one label').max(20, 'must be at most 20 labels');

/**
 * POST /chats/bulk-jobs. `params.assigned_to` (email, or null to unassign) for 'assign';
 * `params.label_ids` for 'label' (added) and 'unlabel' (removed); `params.property_id` (+
 * `params.property_value`, checked against the definition) for 'set_property' / 'clear_property'
 * (issue 15 item 4). Exactly one of `chat_ids`
 * (1..10,000) or `filter`.
 */
export const CreateBulkJobInput = z
  .object({
    action: BulkAction,
    params: z
      .object(
        {
          assigned_to: emailOrNull.optional(),
          label_ids: labelIds.optional(),
          property_id: z.string({ invalid_type_error: 'must be a property id' }).trim().min(1, 'must not be empty').max(100, 'is too long').optional(),
          property_value: z.string({ invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty (use clear_property)').max(500, 'must be at most 500 characters').optional(),
        },
        { invalid_type_error: 'must be an object' },
      )
      .strict()
      .default({}),
    chat_ids: z
      .array(z.string().min(1, 'must not be empty').max(200, 'is too long'), { invalid_type_error: 'must be a list of chat ids' })
      .min(1, 'must name at least one chat')
      .max(MAX_BULK_CHAT_IDS, `must name at most ${MAX_BULK_CHAT_IDS} chats (use a filter for more)`)
      .optional(),
    filter: BulkChatFilter.optional(),
  })
  .superRefine((v, ctx) => {
    if ((v.chat_ids === undefined) === (v.filter === undefined)) ctx.addIssue({ code: 'custom', path: ['chat_ids'], message: 'give either chat_ids or filter' });
    if (v.action === 'assign' && v.params.assigned_to === undefined) ctx.addIssue({ code: 'custom', path: ['params', 'assigned_to'], message: 'is required (a member email, or null to unassign)' });
    if ((v.action === 'label' || v.action === 'unlabel') && v.params.label_ids === undefined) ctx.addIssue({ code: 'custom', path: ['params', 'label_ids'], message: 'is required' });
    if ((v.action === 'set_property' || v.action === 'clear_property') && v.params.property_id === undefined) ctx.addIssue({ code: 'custom', path: ['params', 'property_id'], message: 'is required' });
    if (v.action === 'set_property' && v.params.property_value === undefined) ctx.addIssue({ code: 'custom', path: ['params', 'property_value'], message: 'is required' });
  });
export type CreateBulkJobInput = z.infer<typeof CreateBulkJobInput>;
/** What a client sends (defaults not yet applied). */
export type CreateBulkJobRequest = z.input<typeof CreateBulkJobInput>;

/** What a job applies to: a list of ids (kept as BulkJobItem rows, `count` of them), a filter, or the chats of the job it undoes. */
export const BulkSelection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('chat_ids'), count: z.number() }),
  z.object({ kind: z.literal('filter'), filter: BulkChatFilter }),
  z.object({ kind: z.literal('undo'), job_id: z.string() }),
  /** issue 15 item 4: the chats carrying a custom property (or one value of it: `value_key`), read from its ChatPropertyLink rows (a definition deleted or an option removed) */
  z.object({ kind: z.literal('property'), property_id: z.string(), value_key: z.string().optional() }),
]);
export type BulkSelection = z.infer<typeof BulkSelection>;

/** One chat the action could not be applied to, and why (the workflow's words). */
export const BulkFailure = z.object({ chat_id: z.string(), reason: z.string() });
export type BulkFailure = z.infer<typeof BulkFailure>;

/** Wire shape of a bulk job (GET, POST answers, `bulk_job.updated`). */
export const BulkJob = z.object({
  org_id: z.string(),
  /** 'job_' + ULID */
  job_id: z.string(),
  action: BulkAction,
  params: z.object({ assigned_to: z.string().nullish(), label_ids: z.array(z.string()).nullish(), property_id: z.string().nullish(), property_value: z.string().nullish() }),
  selection: BulkSelection,
  status: z.enum(BULK_JOB_STATUSES),
  /** chats to process (an estimate while a filter is being read; exact once done) */
  total: z.number(),
  processed: z.number(),
  succeeded: z.number(),
  failed_count: z.number(),
  /** the first 200 failures */
  failures: z.array(BulkFailure),
  /** why the whole job failed (status 'failed') */
  error: z.string().nullish(),
  created_by: z.string(),
  /** epoch ms */
  created_at: z.number(),
  /** epoch ms */
  finished_at: z.number().nullish(),
  /** the job this one undoes */
  undo_of: z.string().nullish(),
  /** the job that undid this one */
  undone_by_job: z.string().nullish(),
});
export type BulkJob = z.infer<typeof BulkJob>;

/** GET /chats/export.csv query: a list filter (no paging). */
export const ExportChatsQuery = BulkChatFilter;
export type ExportChatsQuery = z.infer<typeof ExportChatsQuery>;
