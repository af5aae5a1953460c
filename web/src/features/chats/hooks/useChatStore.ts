/**
 * Query hooks over the org's chat data besides the list pages: the chat store (every chat
 * snapshot of this session, chat-store.ts), the folder counts (GET /chats/counts) and the
 * org's chat labels (GET /labels). The realtime bridge (app/realtime-bridge.ts) keeps them
 * current; `reload*` invalidate them.
 */
import { useQuery } from '@tanstack/react-query';
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import { api, errorMessage, type ChatCounts } from '../../../lib/api.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { chatKeys } from '../api/keys.ts';
import { EMPTY_STORE, type ChatStore } from '../api/chat-store.ts';

/** The chat store of `orgId`: written by list pages and the bridge, never fetched. */
export function useChatStore(orgId: string): ChatStore {
  const { data } = useQuery({
    queryKey: chatKeys.store(orgId),
    // only runs when invalidated: the store is its own source, so it answers what it holds
    queryFn: () => queryClient.getQueryData<ChatStore>(chatKeys.store(orgId)) ?? EMPTY_STORE,
    initialData: EMPTY_STORE,
    staleTime: Infinity,
  });
  return data;
}

/** GET /chats/counts (null until loaded; a failure is logged and keeps the last counts). */
export function useChatCounts(orgId: string): ChatCounts | null {
  const { data } = useQuery({
    queryKey: chatKeys.counts(orgId),
    queryFn: () =>
      api.chatCounts(orgId).catch((e: unknown) => {
        console.warn('chat counts:', errorMessage(e));
        throw e;
      }),
    staleTime: 0,
  });
  return data ?? null;
}

const NO_LABELS: ChatLabel[] = [];

/** The org's chat labels (empty until loaded; a failure is logged). */
export function useChatLabels(orgId: string): ChatLabel[] {
  const { data } = useQuery({
    queryKey: chatKeys.labels(orgId),
    queryFn: () =>
      api.chatLabels(orgId).catch((e: unknown) => {
        console.warn('chat labels:', errorMessage(e));
        throw e;
      }),
  });
  return data ?? NO_LABELS;
}

/** Fetch the counts again now. */
export const reloadChatCounts = (orgId: string): void => void queryClient.invalidateQueries({ queryKey: chatKeys.counts(orgId) });
/** Fetch the labels again now. */
export const reloadChatLabels = (orgId: string): void => void queryClient.invalidateQueries({ queryKey: chatKeys.labels(orgId) });
