/**
 * Which tickets a GET /tickets filter keeps and in what order (spec §2 Tickets), pure and
 * browser-safe: the API applies them to the pages it reads (ticket-list.ts) and the tickets page
 * applies the same rules to tickets that arrive over the socket, so a live ticket lands where a
 * reload would put it. Timestamps are epoch ms.
 *
 * Order: ticket ids are ULIDs, so id order is creation order; every sort breaks ties by newest
 * first (id descending). due_asc puts tickets without a due date last.
 */
import type { ListTicketsQuery, Ticket } from './ticket.schemas.ts';

/** The filters of ListTicketsQuery without the subject search (served by the search index). */
export interface TicketListFilter {
  status?: Ticket['status'];
  priority?: number;
  /** lower-case email, or 'none' for unassigned ('me' is resolved by the caller) */
  assignee?: string;
  label?: string;
  phone_id?: string;
  /** inclusive bounds on due_date; a ticket without a due date fails either */
  due_from?: number;
  due_to?: number;
}

/** The fields the rules read: a wire Ticket or the stored item (ticket-list.ts) both fit. */
interface Filterable {
  status: Ticket['status'];
  priority: number;
  assignee?: string | null;
  phone_id: string;
  labels?: string[] | null;
  due_date?: number | null;
}
interface Sortable {
  ticket_id: string;
  priority: number;
  last_updated_at: number;
  due_date?: number | null;
}

/** Does a ticket pass every set filter (AND)? */
export function matchesTicketFilter(t: Filterable, f: TicketListFilter): boolean {
  if (f.status && t.status !== f.status) return false;
  if (f.priority && t.priority !== f.priority) return false;
  if (f.assignee && (t.assignee ? t.assignee.toLowerCase() : 'none') !== f.assignee) return false;
  if (f.phone_id && t.phone_id !== f.phone_id) return false;
  if (f.label && !(t.labels ?? []).includes(f.label)) return false;
  if (f.due_from !== undefined && (t.due_date == null || t.due_date < f.due_from)) return false;
  if (f.due_to !== undefined && (t.due_date == null || t.due_date > f.due_to)) return false;
  return true;
}

const newestFirst = (a: Sortable, b: Sortable): number => (a.ticket_id === b.ticket_id ? 0 : a.ticket_id < b.ticket_id ? 1 : -1);

const COMPARE: Record<ListTicketsQuery['sort'], (a: Sortable, b: Sortable) => number> = {
  created_desc: newestFirst,
  created_asc: (a, b) => -newestFirst(a, b),
  due_asc: (a, b) => (a.due_date ?? Infinity) - (b.due_date ?? Infinity) || newestFirst(a, b),
  priority_desc: (a, b) => b.priority - a.priority || newestFirst(a, b),
  updated_desc: (a, b) => b.last_updated_at - a.last_updated_at || newestFirst(a, b),
};

/** The comparator of a GET /tickets sort. */
export const compareTickets = (sort: ListTicketsQuery['sort']): ((a: Sortable, b: Sortable) => number) => COMPARE[sort];
