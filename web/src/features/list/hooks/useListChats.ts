/**
 * The chats of the /list page for one filter: an infinite query over GET /chats with the API's
 * cursor (PAGE_SIZE rows a page), in the shape the page renders (`rows`). Socket snapshots of
 * chats replace the loaded rows they match (`patch`, via setQueryData); `reload` starts again
 * from the first page with the skeleton (after a bulk job finished, or Retry), as before.
 * Replaces the page's own state and generation counter: a response for an older filter lands in
 * that filter's cache entry and never in the rows shown.
 */
import { useCallback, useMemo, useState } from 'react';
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { errorMessage } from '../../../lib/api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { listApi } from '../api/listApi.ts';
import { toQuery, type ListFilter } from '../api/filters.ts';

const PAGE_SIZE = 50;

type Page = { chats: Chat[]; cursor: string | null };

/** Query keys of the /list feature. */
export const listKeys = {
  all: (orgId: string) => ['orgs', orgId, 'list'] as const,
  chats: (orgId: string, filter: ListFilter) => [...listKeys.all(orgId), 'chats', toQuery(filter)] as const,
};

export interface ListRows {
  status: 'loading' | 'ready' | 'error';
  chats: Chat[];
  cursor: string | null;
  /** the first page's error (status 'error'), or a later page's until dismissed */
  error: string | null;
  loadingMore: boolean;
}

export function useListChats(orgId: string, filter: ListFilter) {
  const queryKey = useMemo(() => listKeys.chats(orgId, filter), [orgId, filter]);
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }): Promise<Page> => listApi.chats(orgId, filter, pageParam, PAGE_SIZE),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
    // refetched on every mount: chat events while the page was closed are not in the cache
    staleTime: 0,
  });
  const [dismissedAt, setDismissedAt] = useState(0);

  const rows: ListRows = useMemo(() => {
    const pages = q.data?.pages ?? [];
    const seen = new Set<string>();
    const chats = pages.flatMap((p) => p.chats).filter((c) => !seen.has(c.chat_id) && !!seen.add(c.chat_id));
    const cursor = pages.length ? pages[pages.length - 1]!.cursor : null;
    if (q.isPending) return { status: 'loading', chats: [], cursor: null, error: null, loadingMore: false };
    if (q.isError && !q.isFetchNextPageError) return { status: 'error', chats: [], cursor: null, error: errorMessage(q.error), loadingMore: false };
    const moreError = q.isFetchNextPageError && q.errorUpdatedAt > dismissedAt ? errorMessage(q.error) : null;
    return { status: 'ready', chats, cursor, error: moreError, loadingMore: q.isFetchingNextPage };
  }, [q.data, q.isPending, q.isError, q.isFetchNextPageError, q.error, q.errorUpdatedAt, q.isFetchingNextPage, dismissedAt]);

  const { fetchNextPage } = q;
  const loadMore = useCallback(() => {
    if (rows.status !== 'ready' || !rows.cursor || rows.loadingMore || rows.error) return;
    void fetchNextPage();
  }, [rows, fetchNextPage]);

  /** Replace loaded rows by newer snapshots (chat id → chat). */
  const patch = useCallback(
    (updates: Map<string, Chat>) =>
      queryClient.setQueryData<InfiniteData<Page, string | null>>(queryKey, (data) =>
        data && data.pages.some((p) => p.chats.some((c) => updates.has(c.chat_id)))
          ? { ...data, pages: data.pages.map((p) => ({ ...p, chats: p.chats.map((c) => updates.get(c.chat_id) ?? c) })) }
          : data,
      ),
    [queryKey],
  );

  const reload = useCallback(() => void queryClient.resetQueries({ queryKey }), [queryKey]);
  const dismissError = useCallback(() => setDismissedAt(Date.now()), []);

  return { rows, loadMore, patch, reload, dismissError };
}
