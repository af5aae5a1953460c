import { Entity } from 'electrodb';

/**
 * Ticket, spec §3 (plus the fields the tickets issue adds). `ticket_id` is a ULID, so the table
 * index sorts an org's tickets by creation time. One overloaded GSI per list filter, each sorted
 * by `ticket_id` (newest first with a descending Query); see ACCESS_PATTERNS.md 14-21.
 * Timestamps are epoch **ms**. `version` guards read-modify-write updates (badge counters and
 * audit rows are written in the same transaction, so a lost race is retried, never half-applied).
 */
export const TicketEntity = new Entity({
  model: { entity: 'ticket', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    ticket_id: { type: 'string', required: true },
    subject: { type: 'string', required: true },
    status: { type: ['open', 'inprogress', 'closed'] as const, required: true },
    priority: { type: 'number', required: true },
    /** member email, or null when unassigned */
    assignee: { type: 'string' },
    /** index key: the assignee's email, or 'none' */
    assignee_key: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    chat_name: { type: 'string' },
    org_phone: { type: 'string', required: true },
    phone_id: { type: 'string', required: true },
    quoted_message_id: { type: 'string', required: true },
    due_date: { type: 'number' },
    /** index key: 15-digit due date (epoch ms), or 'none' (sorts after every date) */
    due_key: { type: 'string', required: true },
    labels: { type: 'list', items: { type: 'string' }, required: true },
    message_count: { type: 'number', required: true, default: 1 },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    last_updated_by: { type: 'string', required: true },
    last_updated_at: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    closed_at: { type: 'number' },
    first_assigned_at: { type: 'number' },
    first_response_at: { type: 'number' },
    first_response_time: { type: 'number' },
    version: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    // ticket by id; tickets of an org by creation (ULID)
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['ticket_id'] } },
    // tickets of an org with a status
    byStatus: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'status'] }, sk: { field: 'gsi1sk', composite: ['ticket_id'] } },
    // tickets of an org by assignee ('none' = unassigned)
    byAssignee: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['org_id', 'assignee_key'] }, sk: { field: 'gsi2sk', composite: ['ticket_id'] } },
    // tickets of an org with a priority
    byPriority: { index: 'gsi3', pk: { field: 'gsi3pk', composite: ['org_id', 'priority'] }, sk: { field: 'gsi3sk', composite: ['ticket_id'] } },
    // tickets of an org reached through one org number
    byPhone: { index: 'gsi4', pk: { field: 'gsi4pk', composite: ['org_id', 'phone_id'] }, sk: { field: 'gsi4sk', composite: ['ticket_id'] } },
    // tickets of an org by due date (range filter and due_asc sort)
    byDue: { index: 'gsi5', pk: { field: 'gsi5pk', composite: ['org_id'] }, sk: { field: 'gsi5sk', composite: ['due_key', 'ticket_id'] } },
    // tickets of a chat (side panel, attach eligibility, first response)
    byChat: { index: 'gsi6', pk: { field: 'gsi6pk', composite: ['org_id', 'chat_id'] }, sk: { field: 'gsi6sk', composite: ['ticket_id'] } },
    // tickets of an org by last change (updated_desc sort)
    byUpdated: { index: 'gsi7', pk: { field: 'gsi7pk', composite: ['org_id'] }, sk: { field: 'gsi7sk', composite: ['last_updated_at', 'ticket_id'] } },
    // the combined filter status + assignee (e.g. my open tickets), newest first: one Query (issue 14 item 8)
    byStatusAssignee: { index: 'gsi8', pk: { field: 'gsi8pk', composite: ['org_id', 'status', 'assignee_key'] }, sk: { field: 'gsi8sk', composite: ['ticket_id'] } },
  },
});

/**
 * One row per (ticket label, ticket): the label filter's index (a ticket has several labels, a GSI
 * key has one value). Each row carries a copy of the whole ticket item (`ticket`), rewritten in
 * every transaction that changes the ticket, so the label list is one Query like the others
 * (a ticket has at most 10 labels, so a write touches at most 10 rows).
 */
export const TicketLabelLinkEntity = new Entity({
  model: { entity: 'ticket_label_link', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    label_id: { type: 'string', required: true },
    ticket_id: { type: 'string', required: true },
    /** copy of the ticket item (all Ticket attributes) */
    ticket: { type: 'any', required: true },
  },
  indexes: {
    // tickets of an org with a label, newest first
    byLabel: { pk: { field: 'pk', composite: ['org_id', 'label_id'] }, sk: { field: 'sk', composite: ['ticket_id'] } },
  },
});

/** A message attached to a ticket: the conversation excerpt, copied at attach time (ordered by message time). */
export const TicketMessageEntity = new Entity({
  model: { entity: 'ticket_message', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    ticket_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    unique_id: { type: 'string', required: true },
    /** epoch ms of the message */
    timestamp: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    body: { type: 'string' },
    message_type: { type: 'string', required: true },
    from_me: { type: 'boolean', required: true },
    author: { type: 'string' },
    attached_by: { type: 'string', required: true },
    attached_at: { type: 'number', required: true },
  },
  indexes: {
    // messages of a ticket in conversation order
    byTicket: { pk: { field: 'pk', composite: ['org_id', 'ticket_id'] }, sk: { field: 'sk', composite: ['timestamp', 'unique_id'] } },
  },
});

/** Audit log of a ticket: one row per change, newest first by `audit_id` (ULID of `at`). */
export const TicketAuditEntity = new Entity({
  model: { entity: 'ticket_audit', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    ticket_id: { type: 'string', required: true },
    audit_id: { type: 'string', required: true },
    action: { type: 'string', required: true },
    old: { type: 'any' },
    new: { type: 'any' },
    by: { type: 'string', required: true },
    /** epoch ms */
    at: { type: 'number', required: true },
  },
  indexes: {
    // audit rows of a ticket, newest first
    byTicket: { pk: { field: 'pk', composite: ['org_id', 'ticket_id'] }, sk: { field: 'sk', composite: ['audit_id'] } },
  },
});

/**
 * Badge counter per (org, member): tickets assigned to the member that are open or in progress
 * (spec §2). Changed with ADD in the same transaction as the ticket, never counted on read.
 */
export const TicketCounterEntity = new Entity({
  model: { entity: 'ticket_counter', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    email: { type: 'string', required: true },
    open_assigned: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    byMember: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['email'] } },
  },
});

/** /settings/tickets of an org: ticket labels and defaults (one item). */
export const TicketSettingsEntity = new Entity({
  model: { entity: 'ticket_settings', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** [{ label_id, name, color }] */
    labels: { type: 'any', required: true },
    default_priority: { type: 'number', required: true },
    default_assignee: { type: ['chat_assignee', 'none'] as const, required: true },
    updated_by: { type: 'string' },
    updated_at: { type: 'number' },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
