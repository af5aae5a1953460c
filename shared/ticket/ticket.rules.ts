import type { Ticket, TicketStatus } from './ticket.schemas.ts';

/**
 * Pure ticket rules (browser-safe), used by the API to refuse and by the web app to show the
 * message menu entries. Sources: spec §5 (create/attach), §2 and §9 (badge), §3 (fields).
 */

export interface Eligibility {
  allowed: boolean;
  /** why not, in words a person understands (absent when allowed) */
  reason?: string;
}

/** The message fields the rules read. */
export interface TicketableMessage {
  message_ticket_id?: string | null;
  is_deleted?: boolean | null;
}

/** Tickets that can still take messages: not closed (spec §5 'open tickets ... excluding closed and archived'). */
export const isOpenTicket = (t: Pick<Ticket, 'status'>): boolean => t.status !== 'closed';

/** spec §5: 'Create ticket only when the message has no ticket.' Deleted messages cannot start one. */
export function canCreateTicket(message: TicketableMessage): Eligibility {
  if (message.message_ticket_id) return { allowed: false, reason: 'This message already belongs to a ticket.' };
  if (message.is_deleted) return { allowed: false, reason: 'This message was deleted.' };
  return { allowed: true };
}

/**
 * spec §5: 'Attach to ticket only when open tickets exist for the chat (excluding closed and archived).'
 * A message carries at most one ticket (`message_ticket_id`), so one already attached is refused.
 */
export function canAttachToTicket(message: TicketableMessage, chatTickets: ReadonlyArray<Pick<Ticket, 'status'>>): Eligibility {
  if (message.message_ticket_id) return { allowed: false, reason: 'This message already belongs to a ticket.' };
  if (message.is_deleted) return { allowed: false, reason: 'This message was deleted.' };
  if (!chatTickets.some(isOpenTicket)) return { allowed: false, reason: 'This chat has no open tickets.' };
  return { allowed: true };
}

/** A ticket keeps the message it was created from (its `quoted_message_id`); other attached messages can leave. */
export function canDetachFromTicket(message: { unique_id: string; message_ticket_id?: string | null }, ticket: Pick<Ticket, 'ticket_id' | 'quoted_message_id'>): Eligibility {
  if (message.message_ticket_id !== ticket.ticket_id) return { allowed: false, reason: 'This message is not in that ticket.' };
  if (ticket.quoted_message_id === message.unique_id) return { allowed: false, reason: 'A ticket keeps the message it was created from.' };
  return { allowed: true };
}

/** Does a ticket in this state and assignee count toward `email`'s badge? (spec §2: assigned to me, open or in progress) */
export const countsForBadge = (t: { status: TicketStatus; assignee: string | null | undefined }, email: string): boolean =>
  !!t.assignee && t.assignee === email && t.status !== 'closed';

/**
 * How a change moves badge counters: `{ [assignee email]: delta }` with zero entries left out.
 * Used on write so the badge is a counter read, never a count on read (architecture §4).
 */
export function badgeDeltas(
  before: { status: TicketStatus; assignee: string | null | undefined } | null,
  after: { status: TicketStatus; assignee: string | null | undefined } | null,
): Record<string, number> {
  const out: Record<string, number> = {};
  const bump = (t: typeof before, d: number) => {
    if (t?.assignee && countsForBadge(t, t.assignee)) out[t.assignee] = (out[t.assignee] ?? 0) + d;
  };
  bump(before, -1);
  bump(after, +1);
  for (const k of Object.keys(out)) if (out[k] === 0) delete out[k];
  return out;
}

/** Order of a chat's ticket list: open and in progress first (newest first), then closed (newest first). */
export function sortChatTickets<T extends Pick<Ticket, 'status' | 'created_at'>>(tickets: T[]): T[] {
  return [...tickets].sort((a, b) => Number(a.status === 'closed') - Number(b.status === 'closed') || b.created_at - a.created_at);
}

/** Subject prefilled from a message (spec: 'subject prefilled from the message, editable'): first line, at most 80 characters. */
export function subjectFromMessage(m: { body?: string | null; message_type: string }): string {
  const line = (m.body ?? '').split('\n').map((s) => s.trim()).find(Boolean);
  if (!line) return m.message_type === 'text' ? 'New ticket' : `${m.message_type[0]!.toUpperCase()}${m.message_type.slice(1)} message`;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
