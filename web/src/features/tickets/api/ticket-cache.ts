/**
 * The /tickets list as a TanStack infinite query: pages of GET /tickets (PAGE at a time, with the
 * API's cursor), one cache entry per org and filters (`ticketKeys.list`). A live change
 * (ticket.* events, our own writes) is applied to the whole loaded list with `applyTicket`
 * (it may enter, move or leave under the filters and sort), so the result is kept as one run in
 * the first page; the later pages keep only their cursors (what 'Load more' and a refetch need).
 * Pure functions, applied with setQueryData by the realtime bridge and the page.
 */
import type { InfiniteData } from '@tanstack/react-query';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import { appendTickets, applyTicket, type TicketFilters } from './tickets.ts';

/** Query keys of the tickets feature. */
export const ticketKeys = {
  lists: (orgId: string) => ['orgs', orgId, 'tickets', 'list'] as const,
  list: (orgId: string, filters: TicketFilters) => [...ticketKeys.lists(orgId), filters] as const,
  /** GET /tickets/badge (my open or in-progress tickets) */
  badge: (orgId: string) => ['orgs', orgId, 'tickets', 'badge'] as const,
  /** GET /tickets/settings */
  settings: (orgId: string) => ['orgs', orgId, 'tickets', 'settings'] as const,
};

export interface TicketPage {
  items: Ticket[];
  cursor: string | null;
}
export type TicketData = InfiniteData<TicketPage, string | null>;

/** Every loaded ticket in list order, without duplicates. */
export const loadedTickets = (data: { pages: TicketPage[] } | undefined): Ticket[] => (data?.pages ?? []).reduce<Ticket[]>((list, p) => appendTickets(list, p.items), []);

/** The loaded list changed as a whole by `fn` (kept in the first page, later pages emptied). */
export function mapTicketList(data: TicketData | undefined, fn: (list: Ticket[]) => Ticket[]): TicketData | undefined {
  if (!data || data.pages.length === 0) return data;
  const before = loadedTickets(data);
  const after = fn(before);
  if (after === before) return data;
  return { ...data, pages: data.pages.map((p, i) => ({ ...p, items: i === 0 ? after : [] })) };
}

/** A live ticket into a list of filters `f` for viewer `me`. */
export const applyTicketToList = (data: TicketData | undefined, t: Ticket, f: TicketFilters, me: string): TicketData | undefined => mapTicketList(data, (l) => applyTicket(l, t, f, me));

/** A local change (optimistic / answer / rollback): replaced as is where listed. */
export const replaceTicketInList = (data: TicketData | undefined, t: Ticket): TicketData | undefined =>
  mapTicketList(data, (l) => {
    const i = l.findIndex((x) => x.ticket_id === t.ticket_id);
    if (i < 0) return l;
    const out = l.slice();
    out[i] = t;
    return out;
  });
