/**
 * The open thread's data: its messages (an infinite query over GET .../messages, PAGE at a time,
 * newest page first; thread-cache.ts) and its chat (the chat store's snapshot, else GET
 * /chats/{chat_id}, which also goes into the store). The realtime bridge merges live messages
 * into the same cache entry and a reconnect refetches it. `apply*` write our own results into it.
 * `status` 'missing' when the chat does not exist or is not visible to us (404/403).
 */
import { useCallback, useMemo } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { api, ApiError, errorMessage } from '../../../lib/api.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { chatKeys } from '../api/keys.ts';
import { threadMessages, upsertThread, type ThreadData, type ThreadPage } from '../api/thread-cache.ts';

const PAGE = 50;

const isMissing = (e: unknown): boolean => e instanceof ApiError && (e.status === 404 || e.status === 403);

export type ThreadStatus = 'loading' | 'ready' | 'error' | 'missing';

export function useThreadMessages(orgId: string, chatId: string) {
  const qc = useQueryClient();
  const { chats, upsertChat } = useInbox();
  const messagesKey = useMemo(() => chatKeys.messages(orgId, chatId), [orgId, chatId]);
  const chatKey = useMemo(() => chatKeys.chat(orgId, chatId), [orgId, chatId]);

  const mq = useInfiniteQuery({
    queryKey: messagesKey,
    queryFn: ({ pageParam }): Promise<ThreadPage> => api.listMessages(orgId, chatId, pageParam, PAGE),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
    // opened again: shown from the cache at once and fetched again (events while closed)
    staleTime: 0,
  });
  const cq = useQuery({
    queryKey: chatKey,
    queryFn: async (): Promise<Chat> => {
      const c = await api.getChat(orgId, chatId);
      upsertChat(c);
      return c;
    },
    staleTime: 0,
  });

  const listChat = chats.find((c) => c.chat_id === chatId) ?? null;
  const chat = listChat ?? cq.data ?? null;
  const messages = useMemo(() => threadMessages(mq.data), [mq.data]);

  const fetching = mq.isFetching || cq.isFetching;
  const missing = !fetching && (isMissing(mq.error) || isMissing(cq.error));
  const failure = mq.isError && !mq.data ? mq.error : null;
  const status: ThreadStatus = missing ? 'missing' : mq.data ? 'ready' : failure && !fetching ? 'error' : 'loading';

  const { refetch: refetchMessages, fetchNextPage } = mq;
  const { refetch: refetchChat } = cq;
  const retry = useCallback(() => {
    void refetchMessages();
    void refetchChat();
  }, [refetchMessages, refetchChat]);

  const pages = mq.data?.pages;
  const cursor = pages?.length ? pages[pages.length - 1]!.cursor : null;
  const loadingOlder = mq.isFetchingNextPage;
  const loadOlder = useCallback(() => {
    if (cursor && !loadingOlder) void fetchNextPage();
  }, [cursor, loadingOlder, fetchNextPage]);
  const olderError = mq.isFetchNextPageError && !loadingOlder ? errorMessage(mq.error) : null;

  /** Write into this thread's messages (optimistic bubbles, our own results). */
  const updateMessages = useCallback((fn: (d: ThreadData | undefined) => ThreadData | undefined) => qc.setQueryData<ThreadData>(messagesKey, fn), [qc, messagesKey]);
  const applyMessage = useCallback((m: Message) => updateMessages((d) => upsertThread(d, [m])), [updateMessages]);
  /** A chat snapshot from our own action: into the store, and the fetched copy if we hold one. */
  const applyChat = useCallback(
    (c: Chat) => {
      upsertChat(c);
      qc.setQueryData<Chat>(chatKey, (prev) => (prev ? c : prev));
    },
    [qc, chatKey, upsertChat],
  );

  return {
    chat,
    messages,
    status,
    error: failure ? errorMessage(failure) : null,
    retry,
    cursor,
    loadOlder,
    loadingOlder,
    olderError,
    updateMessages,
    applyMessage,
    applyChat,
  };
}
