import type { EntityItem } from 'electrodb';
import type { TicketEntity } from './ticket.entity.ts';
import type { Ticket } from './ticket.schemas.ts';

/** A stored ticket row (ElectroDB item). */
type TicketItem = EntityItem<typeof TicketEntity>;

/**
 * Item -> wire (drops index keys and `version`). Pure (no database import), so the search
 * documents (shared/search/search-docs.ts) can carry the same wire a list shows.
 */
export function toTicketWire(t: TicketItem): Ticket {
  return {
    org_id: t.org_id,
    ticket_id: t.ticket_id,
    subject: t.subject,
    status: t.status,
    priority: t.priority as Ticket['priority'],
    assignee: t.assignee ?? null,
    chat_id: t.chat_id,
    chat_name: t.chat_name ?? null,
    org_phone: t.org_phone,
    phone_id: t.phone_id,
    quoted_message_id: t.quoted_message_id,
    due_date: t.due_date ?? null,
    labels: t.labels ?? [],
    message_count: t.message_count,
    created_by: t.created_by,
    created_at: t.created_at,
    last_updated_by: t.last_updated_by,
    last_updated_at: t.last_updated_at,
    closed_at: t.closed_at ?? null,
    first_assigned_at: t.first_assigned_at ?? null,
    first_response_at: t.first_response_at ?? null,
    first_response_time: t.first_response_time ?? null,
  };
}
