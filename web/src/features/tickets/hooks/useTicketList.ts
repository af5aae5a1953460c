/**
 * The /tickets list for one set of filters: an infinite query over GET /tickets (PAGE a page, the
 * API's cursor for 'Load more'), kept live by the realtime bridge (ticket-cache.ts) and refetched
 * after a reconnect. Replaces the page's own list and generation counter: a response for older
 * filters lands in their cache entry, never in the list shown.
 */
import { useCallback, useMemo } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { applyTicketToList, loadedTickets, replaceTicketInList, ticketKeys, type TicketData, type TicketPage } from '../api/ticket-cache.ts';
import type { TicketFilters } from '../api/tickets.ts';
import { toQuery } from './useTicketFilters.ts';

export interface TicketListState {
  tickets: Ticket[];
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  cursor: string | null;
  more: 'idle' | 'loading' | 'error';
  /** start again from the first page (Retry) */
  reload: () => void;
  loadMore: () => void;
  /** a ticket changed here (bulk answer): applied under the filters like a live one */
  apply: (t: Ticket) => void;
  /** a local change (optimistic / answer / rollback): replaced as is when listed */
  replace: (t: Ticket) => void;
}

export function useTicketList(orgId: string, filters: TicketFilters, me: string): TicketListState {
  const qc = useQueryClient();
  const queryKey = useMemo(() => ticketKeys.list(orgId, filters), [orgId, filters]);
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }): Promise<TicketPage> => api.listTickets(orgId, { ...toQuery(filters), ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
    // filters shown again are fetched again (their cached rows meanwhile)
    staleTime: 0,
  });
  const pages = q.data?.pages;
  const tickets = useMemo(() => loadedTickets(pages ? { pages } : undefined), [pages]);
  const cursor = pages?.length ? pages[pages.length - 1]!.cursor : null;
  const busyMore = q.isFetchingNextPage;
  const { fetchNextPage } = q;
  const reload = useCallback(() => void qc.resetQueries({ queryKey }), [qc, queryKey]);
  const loadMore = useCallback(() => {
    if (cursor && !busyMore) void fetchNextPage();
  }, [cursor, busyMore, fetchNextPage]);
  const apply = useCallback((t: Ticket) => qc.setQueryData<TicketData>(queryKey, (d) => applyTicketToList(d, t, filters, me)), [qc, queryKey, filters, me]);
  const replace = useCallback((t: Ticket) => qc.setQueryData<TicketData>(queryKey, (d) => replaceTicketInList(d, t)), [qc, queryKey]);

  const status: TicketListState['status'] = q.data ? 'ready' : q.isError && !q.isFetching ? 'error' : 'loading';
  const error = status === 'error' ? errorMessage(q.error) : null;
  const more: TicketListState['more'] = busyMore ? 'loading' : q.isFetchNextPageError ? 'error' : 'idle';
  return useMemo(() => ({ tickets, status, error, cursor, more, reload, loadMore, apply, replace }), [tickets, status, error, cursor, more, reload, loadMore, apply, replace]);
}
