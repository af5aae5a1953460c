/**
 * Live inbox state of the current organization, shared by the sidebar badges, the chat list and
 * the open thread. Server state lives in the query cache; this provider only ties it together:
 * - the chat list of the current folder and filters (`filter`, kept in the /chats URL by
 *   ChatsPage): features/chats/hooks/useChatList.ts, an infinite query over GET /chats;
 * - `chats`: every chat snapshot known in this session (the chat store), the folder counts and
 *   the org's chat labels: features/chats/hooks/useChatStore.ts;
 * - the realtime socket through the one bridge (realtime-bridge.ts), which writes events into
 *   the cache and re-broadcasts them to `subscribe`rs (typing, toasts, pages not on queries yet);
 *   after a reconnect it invalidates the org's queries and subscribers get a `resync`.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Chat, ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { ChatCounts } from '../lib/api.ts';
import type { SocketState } from '../lib/socket.ts';
import { filterFromSearch, filterKey, type ChatFilter } from '../features/chats/api/chats.ts';
import { chatKeys } from '../features/chats/api/keys.ts';
import { EMPTY_STORE, patchPreview, type ChatStore } from '../features/chats/api/chat-store.ts';
import { useChatList } from '../features/chats/hooks/useChatList.ts';
import { reloadChatCounts, reloadChatLabels, useChatCounts, useChatLabels, useChatStore } from '../features/chats/hooks/useChatStore.ts';
import { useSession } from './session.tsx';
import { startRealtimeBridge } from './realtime-bridge.ts';
import { mergeLive } from './realtime-cache.ts';
import type { InboxEvent } from './realtime-events.ts';

export type { InboxEvent } from './realtime-events.ts';

export interface Inbox {
  orgId: string;
  /** every chat known in this session (any folder), newest first */
  chats: Chat[];
  /** the chat list: chats of the current folder and filters, pinned first, then newest first */
  listChats: Chat[];
  filter: ChatFilter;
  /** show another folder / filters (the list reloads) */
  setFilter: (f: ChatFilter) => void;
  /** GET /chats/counts (null until loaded) */
  counts: ChatCounts | null;
  reloadCounts: () => void;
  /** the org's chat labels (GET /labels) */
  labels: ChatLabel[];
  reloadLabels: () => void;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  cursor: string | null;
  loadingMore: boolean;
  loadMoreError: string | null;
  socketState: SocketState;
  /** the socket has been open at least once */
  socketEverOpen: boolean;
  /** fetch the list again; resolves false when that failed */
  reload: () => Promise<boolean>;
  loadMore: () => void;
  upsertChat: (chat: Chat) => void;
  /** reflect a message (e.g. just sent) in its chat's preview */
  noteMessage: (chatId: string, message: Message) => void;
  subscribe: (fn: (e: InboxEvent) => void) => () => void;
  /** put a client frame on the socket (dropped, returning false, while it is not open) */
  send: (frame: unknown) => boolean;
}

const InboxContext = createContext<Inbox | null>(null);

export function useInbox(): Inbox {
  const v = useContext(InboxContext);
  if (!v) throw new Error('useInbox outside InboxProvider');
  return v;
}

/** The filters of a /chats URL the app was opened at (so a reload keeps them), else All. */
function initialFilter(): ChatFilter {
  if (typeof window === 'undefined' || !window.location.pathname.startsWith('/chats')) return { state: 'open' };
  return filterFromSearch(new URLSearchParams(window.location.search));
}

/** The realtime bridge of `orgId` while mounted: socket state, subscribers, `send`. */
function useRealtime(orgId: string, me: string) {
  const qc = useQueryClient();
  const [socketState, setSocketState] = useState<SocketState>('connecting');
  const [socketEverOpen, setSocketEverOpen] = useState(false);
  const listeners = useRef(new Set<(e: InboxEvent) => void>());
  const sendRef = useRef<(frame: unknown) => boolean>(() => false);

  useEffect(() => {
    const bridge = startRealtimeBridge({
      qc,
      orgId,
      me,
      emit: (e) => {
        for (const fn of listeners.current) {
          try {
            fn(e);
          } catch (err) {
            console.error('inbox listener failed', err);
          }
        }
      },
      onState: (s) => {
        setSocketState(s);
        if (s === 'open') setSocketEverOpen(true);
      },
    });
    sendRef.current = bridge.send;
    return () => {
      bridge.stop();
      sendRef.current = () => false;
    };
  }, [qc, orgId, me]);

  const subscribe = useCallback((fn: (e: InboxEvent) => void) => {
    listeners.current.add(fn);
    return () => {
      listeners.current.delete(fn);
    };
  }, []);
  const send = useCallback((frame: unknown) => sendRef.current(frame), []);
  return useMemo(() => ({ socketState, socketEverOpen, subscribe, send }), [socketState, socketEverOpen, subscribe, send]);
}

export function InboxProvider({ orgId, children }: { orgId: string; children: ReactNode }) {
  const qc = useQueryClient();
  const { user } = useSession();
  const [filter, setFilterState] = useState<ChatFilter>(initialFilter);
  /** when the filter was set (epoch ms): chats pushed since then join its list while they match */
  const [since, setSince] = useState(() => Date.now());
  const filterRef = useRef(filter);
  filterRef.current = filter;
  const setFilter = useCallback((f: ChatFilter) => {
    if (filterKey(filterRef.current) === filterKey(f)) return;
    filterRef.current = f;
    setFilterState(f);
    setSince(Date.now());
  }, []);

  const store = useChatStore(orgId);
  const list = useChatList(orgId, filter, user.email, since);
  const counts = useChatCounts(orgId);
  const labels = useChatLabels(orgId);
  const realtime = useRealtime(orgId, user.email);

  const reloadCounts = useCallback(() => reloadChatCounts(orgId), [orgId]);
  const reloadLabels = useCallback(() => reloadChatLabels(orgId), [orgId]);
  const upsertChat = useCallback((chat: Chat) => mergeLive(qc, orgId, [chat]), [qc, orgId]);
  const noteMessage = useCallback(
    (chatId: string, m: Message) => qc.setQueryData<ChatStore>(chatKeys.store(orgId), (s) => patchPreview(s ?? EMPTY_STORE, chatId, m, false)),
    [qc, orgId],
  );

  const value = useMemo<Inbox>(
    () => ({ orgId, chats: store.chats, filter, setFilter, counts, reloadCounts, labels, reloadLabels, ...list, ...realtime, upsertChat, noteMessage }),
    [orgId, store.chats, filter, setFilter, counts, reloadCounts, labels, reloadLabels, list, realtime, upsertChat, noteMessage],
  );
  return <InboxContext.Provider value={value}>{children}</InboxContext.Provider>;
}
