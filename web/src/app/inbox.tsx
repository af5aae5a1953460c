/**
 * Live inbox state of the current organization, shared by the sidebar badge, the chat list and
 * the open thread:
 * - the chat list (pages of GET /chats, newest first, merged by chat_id), with load-more and retry;
 * - the realtime socket: chat snapshots of events are merged into the list here, and every event is
 *   re-broadcast to subscribers (the open thread upserts its messages from them);
 * - after a reconnect the list is refetched and subscribers get a `resync` to refetch their thread;
 * - ticket.created / ticket.updated / ticket.closed are re-broadcast as `ticket` events (lists upsert them);
 * - task.created / task.updated / task.reminder_due are re-broadcast as `task` events (the task panel);
 * - a message.updated whose flag or pin disagrees with the chat we hold (the server changes both but
 *   publishes only the message) fetches that chat again, so 'needs reply' flags and pins stay live.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import type { Task } from '#shared/task/task.schemas.ts';
import { api, errorMessage, withTicketField } from '../lib/api.ts';
import { getConfig } from '../lib/config.ts';
import { getIdToken } from '../lib/auth.ts';
import { RealtimeSocket, type RealtimeEvent, type SocketState } from '../lib/socket.ts';
import { patchLatestMessage, upsertChats } from '../lib/chats.ts';
import { chatIsStaleFor } from '../lib/messageActions.ts';
import { triggerSessionExpired } from './sessionExpiry.ts';

export type InboxEvent =
  | { kind: 'message'; type: string; chatId: string; message: Message }
  | { kind: 'chat'; type: string; chat: Chat }
  | { kind: 'ticket'; type: string; ticket: Ticket }
  /** task.created / task.updated (actions) and task.reminder_due (remind_at) */
  | { kind: 'task'; type: string; task: Task; actions?: string[]; remindAt?: number | null }
  | { kind: 'resync' };

export interface Inbox {
  orgId: string;
  chats: Chat[];
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  cursor: string | null;
  loadingMore: boolean;
  loadMoreError: string | null;
  socketState: SocketState;
  /** the socket has been open at least once */
  socketEverOpen: boolean;
  reload: () => void;
  loadMore: () => void;
  upsertChat: (chat: Chat) => void;
  /** reflect a message (e.g. just sent) in its chat's preview */
  noteMessage: (chatId: string, message: Message) => void;
  subscribe: (fn: (e: InboxEvent) => void) => () => void;
}

const InboxContext = createContext<Inbox | null>(null);

export function useInbox(): Inbox {
  const v = useContext(InboxContext);
  if (!v) throw new Error('useInbox outside InboxProvider');
  return v;
}

const MESSAGE_WITH_CHAT = new Set(['message.received', 'message.sent']);
const MESSAGE_ONLY = new Set(['message.status_updated', 'message.updated']);
const TICKET_EVENTS = new Set(['ticket.created', 'ticket.updated', 'ticket.closed']);
const TASK_EVENTS = new Set(['task.created', 'task.updated', 'task.reminder_due']);

export function InboxProvider({ orgId, children }: { orgId: string; children: ReactNode }) {
  const [chats, setChats] = useState<Chat[]>([]);
  const [status, setStatus] = useState<Inbox['status']>('loading');
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [loadMoreError, setLoadMoreError] = useState<string | null>(null);
  const [socketState, setSocketState] = useState<SocketState>('connecting');
  const [socketEverOpen, setSocketEverOpen] = useState(false);
  const listeners = useRef(new Set<(e: InboxEvent) => void>());
  /** bumps on every full reload so stale pages are dropped */
  const generation = useRef(0);
  const loadingMoreRef = useRef(false);
  const chatsRef = useRef<Chat[]>([]);
  chatsRef.current = chats;
  const refetchTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  const emit = useCallback((e: InboxEvent) => {
    for (const fn of listeners.current) {
      try {
        fn(e);
      } catch (err) {
        console.error('inbox listener failed', err);
      }
    }
  }, []);

  const reload = useCallback(() => {
    const gen = ++generation.current;
    setStatus((s) => (s === 'ready' ? s : 'loading'));
    setError(null);
    api
      .listChats(orgId)
      .then((page) => {
        if (gen !== generation.current) return;
        // merge: chats pushed over the socket while the page was in flight (or loaded from later
        // pages) are kept; the fresh page wins over older snapshots of the same chats
        setChats((prev) => upsertChats(prev, page.items));
        setCursor(page.cursor);
        setLoadMoreError(null);
        setStatus('ready');
      })
      .catch((e) => {
        if (gen !== generation.current) return;
        setError(errorMessage(e));
        setStatus((s) => (s === 'ready' ? s : 'error'));
      });
  }, [orgId]);

  const loadMore = useCallback(() => {
    if (!cursor || loadingMoreRef.current) return;
    const gen = generation.current;
    loadingMoreRef.current = true;
    setLoadingMore(true);
    setLoadMoreError(null);
    api
      .listChats(orgId, cursor)
      .then((page) => {
        if (gen !== generation.current) return;
        setChats((prev) => upsertChats(prev, page.items));
        setCursor(page.cursor);
      })
      .catch((e) => {
        if (gen === generation.current) setLoadMoreError(errorMessage(e));
      })
      .finally(() => {
        loadingMoreRef.current = false;
        setLoadingMore(false);
      });
  }, [orgId, cursor]);

  const upsertChat = useCallback((chat: Chat) => setChats((prev) => upsertChats(prev, [chat])), []);

  /** Fetch one chat again (debounced per chat), e.g. when a message event shows our copy is stale. */
  const refetchChat = useCallback(
    (chatId: string) => {
      const timers = refetchTimers.current;
      if (timers.has(chatId)) return;
      timers.set(
        chatId,
        setTimeout(() => {
          timers.delete(chatId);
          api
            .getChat(orgId, chatId)
            .then((c) => setChats((prev) => upsertChats(prev, [c])))
            .catch((e) => console.warn('chat refetch failed', errorMessage(e)));
        }, 250),
      );
    },
    [orgId],
  );
  useEffect(() => {
    const timers = refetchTimers.current;
    return () => {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    };
  }, []);
  const noteMessage = useCallback((chatId: string, m: Message) => setChats((prev) => patchLatestMessage(prev, chatId, m)), []);

  // first page
  useEffect(() => {
    reload();
  }, [reload]);

  // realtime
  const reloadRef = useRef(reload);
  reloadRef.current = reload;
  useEffect(() => {
    const onEvent = (ev: RealtimeEvent) => {
      const p = ev.properties as { org_id?: string; chat?: Chat; chat_id?: string; message?: Message; ticket?: Ticket; task?: Task; actions?: unknown; remind_at?: unknown };
      if (p.org_id && p.org_id !== orgId) return;
      if (MESSAGE_WITH_CHAT.has(ev.type) && p.chat && p.message) {
        const chat = p.chat;
        setChats((prev) => upsertChats(prev, [chat]));
        emit({ kind: 'message', type: ev.type, chatId: chat.chat_id, message: withTicketField(p.message) });
      } else if (MESSAGE_ONLY.has(ev.type) && p.message) {
        const chatId = p.chat_id ?? p.message.chat_id;
        // message.updated carries the whole message (a detach clears message_ticket_id); a status
        // snapshot may have been read before an attach, so it never touches the ticket field
        const message = ev.type === 'message.updated' ? withTicketField(p.message) : p.message;
        setChats((prev) => {
          const chat = prev.find((c) => c.chat_id === chatId);
          // only touch the preview when this message is the chat's latest one
          return chat?.latest_message?.unique_id === message.unique_id ? patchLatestMessage(prev, chatId, message) : prev;
        });
        if (ev.type === 'message.updated') {
          const known = chatsRef.current.find((c) => c.chat_id === chatId);
          if (known && chatIsStaleFor(known, message)) refetchChat(chatId);
        }
        emit({ kind: 'message', type: ev.type, chatId, message });
      } else if ((ev.type === 'chat.read' || ev.type === 'chat.updated') && p.chat) {
        const chat = p.chat;
        setChats((prev) => upsertChats(prev, [chat]));
        emit({ kind: 'chat', type: ev.type, chat });
      } else if (TICKET_EVENTS.has(ev.type) && p.ticket && typeof p.ticket === 'object') {
        emit({ kind: 'ticket', type: ev.type, ticket: p.ticket });
      } else if (TASK_EVENTS.has(ev.type) && p.task && typeof p.task === 'object') {
        emit({
          kind: 'task',
          type: ev.type,
          task: p.task,
          actions: Array.isArray(p.actions) ? p.actions.map(String) : undefined,
          remindAt: typeof p.remind_at === 'number' ? p.remind_at : null,
        });
      }
    };
    const socket = new RealtimeSocket({
      wsUrl: getConfig().wsUrl,
      orgId,
      getToken: (force) => getIdToken(force),
      onEvent,
      onState: (s) => {
        setSocketState(s);
        if (s === 'open') setSocketEverOpen(true);
      },
      onReconnected: () => {
        reloadRef.current();
        emit({ kind: 'resync' });
      },
      onAuthLost: triggerSessionExpired,
    });
    socket.start();
    return () => socket.stop();
  }, [orgId, emit, refetchChat]);

  const subscribe = useCallback((fn: (e: InboxEvent) => void) => {
    listeners.current.add(fn);
    return () => {
      listeners.current.delete(fn);
    };
  }, []);

  const value = useMemo<Inbox>(
    () => ({
      orgId,
      chats,
      status,
      error,
      cursor,
      loadingMore,
      loadMoreError,
      socketState,
      socketEverOpen,
      reload,
      loadMore,
      upsertChat,
      noteMessage,
      subscribe,
    }),
    [orgId, chats, status, error, cursor, loadingMore, loadMoreError, socketState, socketEverOpen, reload, loadMore, upsertChat, noteMessage, subscribe],
  );
  return <InboxContext.Provider value={value}>{children}</InboxContext.Provider>;
}
