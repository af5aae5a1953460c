/**
 * The /contacts list: an infinite query over GET /contacts (50 per page, the API's cursor), one cache
 * entry per filter set; pages joined without repeats.
 */
import { useCallback, useMemo } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { ContactView } from '#shared/contact/contact.schemas.ts';
import { errorMessage } from '../../../lib/api.ts';
import { contactKeys, contactsApi, type ContactFilters } from '../api/contacts.ts';

const PAGE_SIZE = 50;

export function useContacts(orgId: string, filters: ContactFilters) {
  const qc = useQueryClient();
  const queryKey = useMemo(() => contactKeys.list(orgId, filters), [orgId, filters]);
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => contactsApi.list(orgId, { ...filters, limit: PAGE_SIZE, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
  });
  const contacts = useMemo(() => {
    const seen = new Set<string>();
    const out: ContactView[] = [];
    for (const p of q.data?.pages ?? []) {
      for (const c of p.contacts) {
        if (seen.has(c.contact_id)) continue;
        seen.add(c.contact_id);
        out.push(c);
      }
    }
    return out;
  }, [q.data]);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = q;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const retry = useCallback(() => void qc.resetQueries({ queryKey }), [qc, queryKey]);
  const refresh = useCallback(() => void qc.invalidateQueries({ queryKey: contactKeys.all(orgId) }), [qc, orgId]);
  return {
    status: q.data ? ('ready' as const) : q.isError && !q.isFetching ? ('error' as const) : ('loading' as const),
    error: q.error ? errorMessage(q.error) : null,
    contacts,
    hasMore: !!hasNextPage,
    loadingMore: isFetchingNextPage,
    loadMore,
    retry,
    refresh,
  };
}
