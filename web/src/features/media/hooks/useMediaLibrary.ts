/**
 * The /media grid: an infinite query over GET /media (`limit` 60 per page, the API's cursor),
 * one cache entry per filter set, so an answer for filters no longer shown can never land in the
 * grid (no generation counter needed). Pages are joined without repeats (a file moved across a page
 * boundary between two requests shows once).
 */
import { useCallback, useMemo } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { LibraryMediaType, MediaItem } from '#shared/media/media.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { mediaKeys, type MediaLibraryParams } from '../api/keys.ts';

const PAGE_SIZE = 60;

export interface MediaLibrary {
  status: 'loading' | 'error' | 'ready';
  /** the first page's error, in words */
  error: string | null;
  items: MediaItem[];
  /** more pages exist */
  hasMore: boolean;
  more: { busy: boolean; error: string | null };
  loadMore: () => void;
  /** fetch the filters' first page again (after an error) */
  retry: () => void;
}

export function useMediaLibrary(orgId: string, params: MediaLibraryParams): MediaLibrary {
  const qc = useQueryClient();
  const queryKey = useMemo(() => mediaKeys.library(orgId, params), [orgId, params]);
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => api.listMedia(orgId, { ...params, type: params.type as LibraryMediaType | undefined, limit: PAGE_SIZE, cursor: pageParam }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
    staleTime: 0,
  });
  const pages = q.data?.pages;
  const items = useMemo(() => {
    const seen = new Set<string>();
    const out: MediaItem[] = [];
    for (const p of pages ?? []) {
      for (const i of p.items) {
        const k = `${i.chat_id}|${i.unique_id}`;
        if (!seen.has(k)) {
          seen.add(k);
          out.push(i);
        }
      }
    }
    return out;
  }, [pages]);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = q;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const retry = useCallback(() => void qc.resetQueries({ queryKey }), [qc, queryKey]);
  const status: MediaLibrary['status'] = q.data ? 'ready' : q.isError && !q.isFetching ? 'error' : 'loading';
  return {
    status,
    error: status === 'error' ? errorMessage(q.error) : null,
    items,
    hasMore: !!hasNextPage,
    more: { busy: isFetchingNextPage, error: q.isFetchNextPageError ? errorMessage(q.error) : null },
    loadMore,
    retry,
  };
}
