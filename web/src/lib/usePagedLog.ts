import { useCallback, useMemo } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';

/**
 * A newest-first, cursor-paged log (ticket and task audit logs) as an infinite query keyed by
 * `key` (a task or ticket id; null = nothing to show): first page on mount and when `key`
 * changes, `reload(quiet)` for live refreshes (quiet keeps the list on screen and ignores errors;
 * otherwise it starts again with the loading state), `loadMore()` appends the next page without
 * duplicates (by `idOf`). A late answer for another key lands in that key's cache entry, never
 * in the list shown.
 * @param fetchPage one page: `cursor` undefined for the first
 */
export function usePagedLog<T>(key: string | null, fetchPage: (cursor?: string) => Promise<{ items: T[]; cursor: string | null }>, idOf: (item: T) => string) {
  const qc = useQueryClient();
  const queryKey = useMemo(() => ['paged-log', key] as const, [key]);
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
    enabled: key !== null,
    staleTime: 0,
  });
  const pages = q.data?.pages;
  const items = useMemo(() => {
    const seen = new Set<string>();
    return (pages ?? []).flatMap((p) => p.items).filter((x) => !seen.has(idOf(x)) && !!seen.add(idOf(x)));
  }, [pages, idOf]);
  const cursor = pages?.length ? pages[pages.length - 1]!.cursor : null;
  const state: 'loading' | 'ready' | 'error' = q.data ? 'ready' : q.isError && !q.isFetching ? 'error' : 'loading';
  const more: 'idle' | 'loading' | 'error' = q.isFetchingNextPage ? 'loading' : q.isFetchNextPageError ? 'error' : 'idle';

  const { refetch, fetchNextPage } = q;
  const reload = useCallback(
    (quiet: boolean) => {
      if (!key) return;
      if (quiet) void refetch();
      else void qc.resetQueries({ queryKey });
    },
    [key, refetch, qc, queryKey],
  );
  const loadMore = () => {
    if (key && cursor) void fetchNextPage();
  };

  return { items, cursor, state, more, reload, loadMore };
}
