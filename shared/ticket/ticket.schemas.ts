import { z } from 'zod';

/**
 * Wire shapes of tickets (spec §3 Ticket, §5 create/attach rules, §7 attach/detach call, §9 badge).
 * Browser-safe: imported by the web app and the API. Timestamps are epoch **ms**.
 * Routes (all under /api/orgs/{org_id}):
 *   GET    /tickets                          ListTicketsQuery -> { tickets, cursor }
 *   POST   /tickets                          CreateTicketInput -> 201 { ticket, message }
 *   GET    /tickets/badge                    -> { count }  (mine, open or inprogress)
 *   POST   /tickets/bulk                     BulkUpdateTicketsInput -> BulkUpdateResult
 *   GET    /tickets/{ticket_id}              -> { ticket, messages: TicketMessage[] }
 *   PATCH  /tickets/{ticket_id}              UpdateTicketInput -> { ticket }
 *   GET    /tickets/{ticket_id}/audit        ?cursor -> { entries: TicketAuditEntry[], cursor }
 *   PUT    /chats/{chat_id}/messages/{unique_id}/ticket   AttachTicketInput -> { ticket, message }
 *          (detach = message_ticket_id null; the message a ticket was created from cannot be detached: canDetachFromTicket)
 *   GET    /chats/{chat_id}/tickets          -> { tickets }  (open and inprogress first, then closed)
 *   GET    /settings/tickets                 -> { settings: TicketSettings }
 *   PUT    /settings/tickets                 TicketSettingsInput (admins) -> { settings }
 */

export const TICKET_STATUSES = ['open', 'inprogress', 'closed'] as const;
export const TicketStatus = z.enum(TICKET_STATUSES, { errorMap: () => ({ message: 'must be open, inprogress or closed' }) });
export type TicketStatus = z.infer<typeof TicketStatus>;

/** 1 Low, 2 Medium, 3 High (spec §3, same scale as tasks). */
export const TICKET_PRIORITIES = { 1: 'Low', 2: 'Medium', 3: 'High' } as const;
export const TicketPriority = z.union([z.literal(1), z.literal(2), z.literal(3)], { errorMap: () => ({ message: 'must be 1 (Low), 2 (Medium) or 3 (High)' }) });
export type TicketPriority = z.infer<typeof TicketPriority>;

export const MAX_SUBJECT = 250;
export const MAX_TICKET_LABELS = 10;
export const MAX_BULK_TICKETS = 100;

export const Ticket = z.object({
  org_id: z.string(),
  ticket_id: z.string(),
  subject: z.string(),
  status: TicketStatus,
  priority: TicketPriority,
  /** member email, or null when unassigned */
  assignee: z.string().nullable(),
  chat_id: z.string(),
  chat_name: z.string().nullish(),
  org_phone: z.string(),
  phone_id: z.string(),
  /** unique_id of the message the ticket was created from */
  quoted_message_id: z.string(),
  /** epoch ms, or null */
  due_date: z.number().nullable(),
  /** ticket label ids (TicketSettings.labels) */
  labels: z.array(z.string()),
  message_count: z.number(),
  created_by: z.string(),
  created_at: z.number(),
  last_updated_by: z.string(),
  last_updated_at: z.number(),
  closed_at: z.number().nullable(),
  first_assigned_at: z.number().nullable(),
  /** first reply to the customer in the ticket's chat after the ticket was created */
  first_response_at: z.number().nullable(),
  /** first_response_at - created_at, ms */
  first_response_time: z.number().nullable(),
});
export type Ticket = z.infer<typeof Ticket>;

/** A message attached to a ticket (conversation excerpt), copied at attach time. */
export const TicketMessage = z.object({
  ticket_id: z.string(),
  chat_id: z.string(),
  unique_id: z.string(),
  timestamp: z.number(),
  body: z.string().nullish(),
  message_type: z.string(),
  from_me: z.boolean(),
  author: z.string().nullish(),
  attached_by: z.string(),
  attached_at: z.number(),
});
export type TicketMessage = z.infer<typeof TicketMessage>;

export const TICKET_AUDIT_ACTIONS = ['TICKET_CREATED', 'SUBJECT_CHANGED', 'STATUS_CHANGED', 'PRIORITY_CHANGED', 'ASSIGNEE_CHANGED', 'DUE_DATE_CHANGED', 'LABELS_CHANGED', 'MESSAGE_ATTACHED', 'MESSAGE_DETACHED', 'FIRST_RESPONSE'] as const;
export const TicketAuditEntry = z.object({
  ticket_id: z.string(),
  audit_id: z.string(),
  action: z.enum(TICKET_AUDIT_ACTIONS),
  /** the changed fields before and after (only those fields) */
  old: z.record(z.unknown()).nullable(),
  new: z.record(z.unknown()).nullable(),
  /** member email, or 'system' */
  by: z.string(),
  /** epoch ms */
  at: z.number(),
});
export type TicketAuditEntry = z.infer<typeof TicketAuditEntry>;

/** Longest ticket label name (characters). */
export const TICKET_LABEL_MAX = 50;

export const TicketLabel = z.object({
  label_id: z.string(),
  name: z.string().trim().min(1, 'is required').max(TICKET_LABEL_MAX, `must be at most ${TICKET_LABEL_MAX} characters`),
  /** CSS hex colour, e.g. #3b82f6 */
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #3b82f6'),
});
export type TicketLabel = z.infer<typeof TicketLabel>;

export const TicketSettings = z.object({
  labels: z.array(TicketLabel),
  default_priority: TicketPriority,
  /** 'chat_assignee': a new ticket goes to the chat's assignee; 'none': unassigned */
  default_assignee: z.enum(['chat_assignee', 'none']),
});
export type TicketSettings = z.infer<typeof TicketSettings>;

export const DEFAULT_TICKET_SETTINGS: TicketSettings = { labels: [], default_priority: 1, default_assignee: 'none' };

/** PUT /settings/tickets: labels without `label_id` are new. Names must be unique (case-insensitive). */
export const TicketSettingsInput = z.object({
  labels: z.array(TicketLabel.extend({ label_id: z.string().min(1).optional() })).max(100, 'must be at most 100 labels'),
  default_priority: TicketPriority,
  default_assignee: z.enum(['chat_assignee', 'none'], { errorMap: () => ({ message: 'must be chat_assignee or none' }) }),
});
export type TicketSettingsInput = z.infer<typeof TicketSettingsInput>;

const Subject = z
  .string({ required_error: 'is required', invalid_type_error: 'must be text' })
  .trim()
  .min(1, 'is required')
  .max(MAX_SUBJECT, `must be at most ${MAX_SUBJECT} characters`);
const Email = z.string().trim().toLowerCase().email('must be a member email');
const DueDate = z.number({ invalid_type_error: 'must be epoch ms' }).int('must be epoch ms').positive('must be epoch ms');
const Labels = z.array(z.string().min(1)).max(MAX_TICKET_LABELS, `must be at most ${MAX_TICKET_LABELS} labels`);

/** POST /tickets: from a message (spec §5: only when the message has no ticket). Unset fields take TicketSettings defaults. */
export const CreateTicketInput = z.object({
  chat_id: z.string({ required_error: 'is required' }).min(1, 'is required'),
  /** unique_id of the message */
  quoted_message_id: z.string({ required_error: 'is required' }).min(1, 'is required'),
  subject: Subject.optional(),
  priority: TicketPriority.optional(),
  /** member email; null = unassigned; omitted = settings default */
  assignee: Email.nullable().optional(),
  due_date: DueDate.nullable().optional(),
  labels: Labels.optional(),
});
export type CreateTicketInput = z.infer<typeof CreateTicketInput>;

/** PATCH /tickets/{ticket_id}: any subset; at least one field. */
export const UpdateTicketInput = z
  .object({
    subject: Subject.optional(),
    status: TicketStatus.optional(),
    priority: TicketPriority.optional(),
    assignee: Email.nullable().optional(),
    due_date: DueDate.nullable().optional(),
    labels: Labels.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'nothing to change' });
export type UpdateTicketInput = z.infer<typeof UpdateTicketInput>;

/** POST /tickets/bulk */
export const BulkUpdateTicketsInput = z
  .object({
    ticket_ids: z.array(z.string().min(1)).min(1, 'must list at least one ticket').max(MAX_BULK_TICKETS, `must list at most ${MAX_BULK_TICKETS} tickets`),
    status: TicketStatus.optional(),
    assignee: Email.nullable().optional(),
  })
  .refine((v) => v.status !== undefined || v.assignee !== undefined, { message: 'give a status or an assignee' });
export type BulkUpdateTicketsInput = z.infer<typeof BulkUpdateTicketsInput>;
export interface BulkUpdateResult {
  updated: Ticket[];
  failed: Array<{ ticket_id: string; reason: string }>;
}

/** PUT /chats/{chat_id}/messages/{unique_id}/ticket (spec §7 attach or detach: message_ticket_id, unique_id). null detaches. */
export const AttachTicketInput = z.object({
  message_ticket_id: z.string({ required_error: 'is required (null to detach)', invalid_type_error: 'must be a ticket id or null' }).min(1).nullable(),
});
export type AttachTicketInput = z.infer<typeof AttachTicketInput>;

export const TICKET_SORTS = ['created_desc', 'created_asc', 'due_asc', 'priority_desc', 'updated_desc'] as const;

/** GET /tickets query. Filters combine (AND); one is served by its index, the rest filter that index's pages. */
export const ListTicketsQuery = z
  .object({
    status: TicketStatus.optional(),
    priority: z.coerce.number().pipe(TicketPriority).optional(),
    /** a member email, 'none' for unassigned, or 'me' */
    assignee: z.string().trim().toLowerCase().min(1).optional(),
    label: z.string().min(1).optional(),
    phone_id: z.string().min(1).optional(),
    /** due date range, epoch ms, inclusive */
    due_from: z.coerce.number({ invalid_type_error: 'must be epoch ms' }).int('must be a whole number').min(0, 'must not be negative').optional(),
    due_to: z.coerce.number({ invalid_type_error: 'must be epoch ms' }).int('must be a whole number').min(0, 'must not be negative').optional(),
    /** subject contains (case-insensitive) */
    q: z.string().trim().max(100, 'must be at most 100 characters').optional(),
    sort: z.enum(TICKET_SORTS, { errorMap: () => ({ message: `must be one of ${TICKET_SORTS.join(', ')}` }) }).default('created_desc'),
    limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(50),
    cursor: z.string().min(1).optional(),
  })
  .refine((v) => v.due_from === undefined || v.due_to === undefined || v.due_from <= v.due_to, { message: 'due_from must not be after due_to', path: ['due_from'] });
export type ListTicketsQuery = z.infer<typeof ListTicketsQuery>;

/** Sidebar badge text (spec §2, §9): '' for 0, the number up to 99, then '99+'. */
export const badgeText = (count: number): string => (count <= 0 ? '' : count > 99 ? '99+' : String(count));
