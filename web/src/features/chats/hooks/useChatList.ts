/**
 * The /chats list for one filter: an infinite query over GET /chats with the API's cursor (spec
 * §9: the first page 1000 chats, then 500 at a time). Pages hold chat ids; the chats themselves go
 * to the chat store, so socket pushes (app/realtime-bridge.ts) update rows in place, and live chats
 * pushed since the filter was set (`since`, epoch ms) join the list while they match it.
 */
import { useCallback, useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, errorMessage } from '../../../lib/api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { chatKeys } from '../api/keys.ts';
import { EMPTY_STORE, listedChats, rememberChats, type ChatStore } from '../api/chat-store.ts';
import { filterKey, type ChatFilter } from '../api/chats.ts';
import { useChatStore } from './useChatStore.ts';

/** spec §9: chats are first fetched 1000 at a time */
const FIRST_PAGE = 1000;
const NEXT_PAGE = 500;

interface ListPage {
  /** pinned first, then the page's items */
  ids: string[];
  cursor: string | null;
}

export interface ChatListState {
  listChats: ReturnType<typeof listedChats>;
  status: 'loading' | 'ready' | 'error';
  /** the first page's (or a refetch's) error */
  error: string | null;
  cursor: string | null;
  loadingMore: boolean;
  loadMoreError: string | null;
  /** fetch the list again; resolves false when that failed */
  reload: () => Promise<boolean>;
  loadMore: () => void;
}

export function useChatList(orgId: string, filter: ChatFilter, me: string, since: number): ChatListState {
  const store = useChatStore(orgId);
  const q = useInfiniteQuery({
    queryKey: chatKeys.list(orgId, filterKey(filter)),
    queryFn: async ({ pageParam }): Promise<ListPage> => {
      const page = await api.listChats(orgId, pageParam, pageParam ? NEXT_PAGE : FIRST_PAGE, filter);
      const chats = [...page.pinned, ...page.items];
      queryClient.setQueryData<ChatStore>(chatKeys.store(orgId), (s) => rememberChats(s ?? EMPTY_STORE, chats));
      return { ids: chats.map((c) => c.chat_id), cursor: page.cursor };
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
    // a folder opened again is fetched again (as before), its cached rows shown meanwhile
    staleTime: 0,
  });

  const pages = q.data?.pages;
  const pageIds = useMemo(() => new Set((pages ?? []).flatMap((p) => p.ids)), [pages]);
  const listChats = useMemo(() => listedChats(store, pageIds, filter, me, Date.now(), since), [store, pageIds, filter, me, since]);

  const { refetch, fetchNextPage } = q;
  const reload = useCallback(() => refetch().then((r) => !r.isError), [refetch]);
  const cursor = pages?.length ? pages[pages.length - 1]!.cursor : null;
  const busyMore = q.isFetchingNextPage;
  const loadMore = useCallback(() => {
    if (cursor && !busyMore) void fetchNextPage();
  }, [cursor, busyMore, fetchNextPage]);

  const status = q.data ? 'ready' : q.isError && !q.isFetching ? 'error' : 'loading';
  const error = q.isError && !q.isFetchNextPageError ? errorMessage(q.error) : null;
  const loadMoreError = q.isFetchNextPageError && !busyMore ? errorMessage(q.error) : null;
  return useMemo(
    () => ({ listChats, status, error, cursor, loadingMore: busyMore, loadMoreError, reload, loadMore }),
    [listChats, status, error, cursor, busyMore, loadMoreError, reload, loadMore],
  );
}
