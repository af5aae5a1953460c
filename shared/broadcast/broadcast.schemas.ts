import { z } from 'zod';
import { BulkChatFilter } from '../bulk/bulk-job.schemas.ts';
import { TemplateRef } from '../template/template.schemas.ts';
import { ContactExportQuery } from '../contact/contact.schemas.ts';

/**
 * Broadcast API contracts (issue 16 part B; spec §2 /broadcast, §6 member_permissions.bulk_message,
 * §9 bulk-message credits). Browser-safe (zod only). Times are epoch **ms** unless a name says
 * otherwise; `month` is 'YYYY-MM' (UTC).
 */

export const BROADCAST_STATUSES = ['scheduled', 'running', 'paused', 'completed', 'cancelled'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** pending -> sending (claimed by a conditional write) -> sent | failed; skipped at creation (opt-out, no template, no chat). */
export const RECIPIENT_STATES = ['pending', 'sending', 'sent', 'failed', 'skipped'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

export const SKIP_REASONS = ['opt_out', 'no_template', 'no_chat', 'duplicate'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Most recipients of one broadcast. */
export const MAX_RECIPIENTS = 100_000;
/** Most rows of a CSV audience sent in one request body (about 1 MiB). */
export const MAX_CSV_ROWS = 10_000;
/** Pacing bounds per number, ms between two recipients (spec: default 1 s). */
export const DEFAULT_PACE_MS = 1000;
export const MIN_PACE_MS = 10;
export const MAX_PACE_MS = 60_000;

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)');
/** Quiet hours in the org's time zone (settings/general): no sends from `start` to `end`; may wrap midnight (22:00–08:00). */
export const QuietHours = z.object({ start: HHMM, end: HHMM }).refine((q) => q.start !== q.end, { message: 'start and end must differ', path: ['end'] });
export type QuietHours = z.infer<typeof QuietHours>;

const varName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,31}$/, 'must be a variable name (letters, digits, _)');
const vars = z.record(varName, z.string().max(1000, 'must be at most 1000 characters')).refine((v) => Object.keys(v).length <= 20, 'must have at most 20 variables');

/** One CSV row: the customer's number (digits, with country code) and its variables. */
export const CsvRecipient = z.object({
  phone: z.string({ required_error: 'is required' }).transform((s) => s.replace(/[\s()+-]/g, '')).pipe(z.string().regex(/^\d{6,20}$/, 'must be a phone number with its country code')),
  vars: vars.default({}),
});

export const Audience = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('chats'), chat_ids: z.array(z.string().min(1).max(200)).min(1, 'pick at least one chat').max(MAX_CSV_ROWS, `must be at most ${MAX_CSV_ROWS} chats`) }),
  z.object({ kind: z.literal('filter'), filter: BulkChatFilter }),
  /**
   * contacts filtered like /contacts (label, property value, number talked to, last seen, search words;
   * shared/contact listContactBook as the creator sees it) -> each contact's chat, on `phone_id` when
   * given (the number the broadcast goes out from); contacts without such a chat are skipped (no_chat) and counted
   */
  z.object({
    kind: z.literal('contacts'),
    filter: ContactExportQuery.omit({ sort: true, order: true }).default({}),
    phone_id: z.string().trim().min(1, 'must not be empty').max(64, 'is too long').optional(),
  }),
  z.object({ kind: z.literal('csv'), rows: z.array(CsvRecipient).min(1, 'the CSV has no rows').max(MAX_CSV_ROWS, `must be at most ${MAX_CSV_ROWS} rows`) }),
]);
export type Audience = z.infer<typeof Audience>;

/** Pattern of a broadcast upload's id ('bup_' + ULID). */
export const BROADCAST_UPLOAD_ID = /^bup_[0-9A-HJKMNP-TV-Z]{26}$/;

const mediaText = (max: number) => z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(max, 'is too long');

/**
 * The file attached to a broadcast, either
 * - a media-library file: `{ chat_id, unique_id }`, the chat and message it is stored on, or
 * - a file uploaded from the member's computer: `{ upload_id }` from POST /broadcasts/uploads.
 */
export const BroadcastMedia = z
  .object({
    chat_id: mediaText(200).optional(),
    unique_id: mediaText(100).optional(),
    upload_id: z.string({ invalid_type_error: 'must be text' }).regex(BROADCAST_UPLOAD_ID, 'is not an upload id from POST /broadcasts/uploads').optional(),
  })
  .superRefine((m, ctx) => {
    if (m.upload_id) {
      if (m.chat_id || m.unique_id) ctx.addIssue({ code: 'custom', path: ['upload_id'], message: 'is given with chat_id / unique_id: attach an upload or a media-library file, not both' });
      return;
    }
    if (!m.chat_id) ctx.addIssue({ code: 'custom', path: ['chat_id'], message: 'is required' });
    if (!m.unique_id) ctx.addIssue({ code: 'custom', path: ['unique_id'], message: 'is required' });
  })
  .transform((m): { chat_id: string; unique_id: string } | { upload_id: string } => (m.upload_id ? { upload_id: m.upload_id } : { chat_id: m.chat_id!, unique_id: m.unique_id! }));
export type BroadcastMedia = z.infer<typeof BroadcastMedia>;

/** POST /api/orgs/{org_id}/broadcasts/uploads: the file a member is about to attach from their computer (same checks as the composer's). */
export const CreateBroadcastUploadInput = z.object({
  filename: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  mimetype: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(255, 'is too long'),
  /** bytes */
  size: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'is an empty file'),
});
export type CreateBroadcastUploadInput = z.infer<typeof CreateBroadcastUploadInput>;

/**
 * Where to PUT the file (`upload_url`, presigned S3 PUT in AWS, with exactly `headers`; the body must
 * be `size` bytes), and the `upload_id` to attach: `content.media = { upload_id }`.
 */
export const BroadcastUploadResponse = z.object({
  upload_id: z.string(),
  upload_url: z.string(),
  headers: z.record(z.string()),
  filename: z.string(),
  /** image, video, audio or document */
  message_type: z.string(),
  /** bytes */
  size: z.number(),
  /** epoch ms after which the URL stops working */
  expires_at: z.number(),
});
export type BroadcastUploadResponse = z.infer<typeof BroadcastUploadResponse>;

/**
 * What a broadcast sends (issue 16 item 2 "Content"):
 * - `body` only: text to everyone; Cloud API recipients outside the 24-hour window are skipped (`no_template`);
 * - `template` only: the synced template to everyone (Cloud API numbers only: a WhatsApp Web recipient
 *   makes the create/preview a 400 `template.not_cloud`);
 * - both: the text inside the window (and on WhatsApp Web numbers), the template as the fallback for
 *   Cloud API recipients outside it.
 * A `media` file goes with the text (the text is its caption) to whoever gets the text.
 * Template `values` may hold `{{name}}`, `{{phone}}` and CSV columns, filled per recipient like the text.
 */
export const BroadcastContent = z
  .object({
    /** WhatsApp formatting (*bold*, _italic_, ~strike~, ```mono```); `{{name}}`, `{{phone}}` and CSV variables are filled per recipient */
    body: z.string({ invalid_type_error: 'must be text' }).trim().max(4096, 'must be at most 4096 characters').optional(),
    /** a synced template of the recipients' number (name + language + values, see TemplateRef) */
    template: TemplateRef.optional(),
    /**
     * a file of the media library (`{ chat_id, unique_id }`: the message it is stored on, as GET /media
     * lists it) or one uploaded from the member's computer (`{ upload_id }`), sent with the text as its
     * caption to the recipients who get the text (image, video, audio or document, within Meta's limits)
     */
    media: BroadcastMedia.optional(),
  })
  .superRefine((c, ctx) => {
    if (!c.body && !c.template && !c.media) ctx.addIssue({ code: 'custom', path: ['body'], message: 'must not be empty' });
    if (c.media && c.template && !c.body) ctx.addIssue({ code: 'custom', path: ['media'], message: 'is sent with the text; with a template to everyone there is no text to attach it to' });
    if (c.media && (c.body?.length ?? 0) > 1024) ctx.addIssue({ code: 'custom', path: ['body'], message: 'must be at most 1024 characters with a file (it is the caption)' });
  });
export type BroadcastContent = z.infer<typeof BroadcastContent>;

export const BroadcastOptions = z.object({
  /** ms between two recipients on one number (WhatsApp Web numbers go slower, with jitter) */
  pace_ms: z.number({ invalid_type_error: 'must be a number of ms' }).int('must be a whole number').min(MIN_PACE_MS, `must be at least ${MIN_PACE_MS}`).max(MAX_PACE_MS, `must be at most ${MAX_PACE_MS}`).default(DEFAULT_PACE_MS),
  quiet_hours: QuietHours.nullable().default(null),
  /** a customer whose last message is this word (any case) is skipped */
  opt_out_keyword: z.string().trim().min(1, 'must not be empty').max(30, 'must be at most 30 characters').default('STOP'),
});

export const CreateBroadcastInput = z.object({
  name: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  audience: Audience,
  content: BroadcastContent,
  /** epoch ms; null or absent: now */
  send_at: z.number({ invalid_type_error: 'must be a time in epoch ms' }).int('must be a whole number of ms').nullable().optional(),
  options: BroadcastOptions.default({}),
});
export type CreateBroadcastInput = z.infer<typeof CreateBroadcastInput>;

/** POST /broadcasts/preview: same audience and content, nothing stored. */
export const PreviewBroadcastInput = z.object({ audience: Audience, content: BroadcastContent, options: BroadcastOptions.default({}) });
export type PreviewBroadcastInput = z.infer<typeof PreviewBroadcastInput>;

export const BroadcastAction = z.object({ action: z.enum(['pause', 'resume', 'cancel'], { errorMap: () => ({ message: "must be 'pause', 'resume' or 'cancel'" }) }) });

export const BroadcastStats = z.object({
  total: z.number(),
  pending: z.number(),
  sent: z.number(),
  delivered: z.number(),
  read: z.number(),
  failed: z.number(),
  replied: z.number(),
  skipped: z.number(),
  skipped_opt_out: z.number(),
  skipped_no_template: z.number(),
  skipped_other: z.number(),
});
export type BroadcastStats = z.infer<typeof BroadcastStats>;

/** Why the engine paused a broadcast (issue 42): the month's credits ran out, or the subscription or free trial ended (credits then read 0). */
export const BROADCAST_PAUSE_REASONS = ['out_of_credits', 'subscription_ended', 'trial_ended'] as const;
export type BroadcastPauseReason = (typeof BROADCAST_PAUSE_REASONS)[number];

export const Broadcast = z.object({
  broadcast_id: z.string(),
  name: z.string(),
  status: z.enum(BROADCAST_STATUSES),
  content: BroadcastContent,
  audience_kind: z.enum(['chats', 'filter', 'csv', 'contacts']),
  pace_ms: z.number(),
  quiet_hours: QuietHours.nullable(),
  opt_out_keyword: z.string(),
  send_at: z.number().nullable(),
  created_by: z.string(),
  created_at: z.number(),
  started_at: z.number().nullable(),
  finished_at: z.number().nullable(),
  /** epoch ms until which the engine waits (quiet hours, rate-limit backoff); null when not waiting */
  waiting_until: z.number().nullable(),
  /** why a paused broadcast was paused by the engine; null when it is not paused or a person paused it */
  pause_reason: z.enum(BROADCAST_PAUSE_REASONS).nullable(),
  stats: BroadcastStats,
});
export type Broadcast = z.infer<typeof Broadcast>;

export const Recipient = z.object({
  rid: z.string(),
  chat_id: z.string().nullable(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  state: z.enum(RECIPIENT_STATES),
  skip_reason: z.enum(SKIP_REASONS).nullable(),
  /** ack of the sent message: 1 sent, 2 delivered, 3 read, -1 failed */
  ack: z.number().nullable(),
  error: z.string().nullable(),
  sent_at: z.number().nullable(),
  replied_at: z.number().nullable(),
});
export type Recipient = z.infer<typeof Recipient>;

export const RecipientFilter = z.enum(['all', 'pending', 'sent', 'delivered', 'read', 'failed', 'replied', 'skipped']);
export const ListRecipientsQuery = z.object({
  filter: RecipientFilter.default('all'),
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(500, 'must be at most 500').default(100),
  cursor: z.string().max(2000, 'is too long').optional(),
});
export type ListRecipientsQuery = z.infer<typeof ListRecipientsQuery>;

export const ListBroadcastsQuery = z.object({
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(50),
  cursor: z.string().max(2000, 'is too long').optional(),
});

/** A preview row: what one recipient will get. */
export const PreviewRow = z.object({
  chat_id: z.string().nullable(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  /** what this recipient gets: the filled text, or the filled template's text; null when skipped */
  text: z.string().nullable(),
  /** 'template' when the template is sent to this recipient (template content, or the fallback outside the window) */
  via: z.enum(['text', 'template']).nullable(),
  skip_reason: z.enum(SKIP_REASONS).nullable(),
});
export const BroadcastPreview = z.object({
  total: z.number(),
  to_send: z.number(),
  skipped_opt_out: z.number(),
  /** Cloud API recipients outside the 24-hour window: a template is needed for them (skipped with text-only content, sent the template otherwise) */
  needs_template: z.number(),
  /** recipients who get the template (template content, or the fallback) */
  via_template: z.number(),
  skipped_other: z.number(),
  credits: z.object({ month: z.string(), limit: z.number(), used: z.number(), remaining: z.number() }),
  rows: z.array(PreviewRow),
});
export type BroadcastPreview = z.infer<typeof BroadcastPreview>;

export const CreditUsage = z.object({ month: z.string(), limit: z.number(), used: z.number(), remaining: z.number(), licences: z.number(), per_licence: z.number() });
export type CreditUsage = z.infer<typeof CreditUsage>;
