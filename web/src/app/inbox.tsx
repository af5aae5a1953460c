/**
 * Live inbox state of the current organization, shared by the sidebar badge, the chat list and
 * the open thread:
 * - the chat list (pages of GET /chats, newest first, merged by chat_id), with load-more and retry;
 * - the realtime socket: chat snapshots of events are merged into the list here, and every event is
 *   re-broadcast to subscribers (the open thread upserts its messages from them);
 * - after a reconnect the list is refetched and subscribers get a `resync` to refetch their thread;
 * - ticket.created / ticket.updated / ticket.closed are re-broadcast as `ticket` events (lists upsert them);
 * - task.created / task.updated / task.reminder_due are re-broadcast as `task` events (the task panel);
 * - note.created / note.deleted (private notes) go to the open thread like message.updated;
 *   notification.created (mine only) is re-broadcast as a `notification` event (bell, toast);
 * - bulk_job.updated (my bulk jobs only) is re-broadcast as a `bulk_job` event (the /list progress bar);
 * - phone.session_updated (admins only) as a `phone_session` event (WhatsApp Web linking on /settings/phones);
 * - chat.typing (socket-only, shared/realtime/typing.ts) is re-broadcast as a `typing` event, and
 *   `send` puts client frames (typing start/stop) on the socket;
 * - a message.updated whose flag or pin disagrees with the chat we hold (the server changes both but
 *   publishes only the message) fetches that chat again, so 'needs reply' flags and pins stay live;
 * - the list is one folder with filters (issue 4; `filter`, kept in the /chats URL by ChatsPage):
 *   `listChats` holds the chats the server listed for it plus any pushed or changed since that
 *   match it (a pushed chat that no longer matches leaves, one that now matches enters; pinned
 *   first); `chats` every chat we know (any folder). Pushes carry no per-member fields, so ours are kept
 *   (lib/chats.ts). The folder counts (GET /chats/counts) are refetched ~1 s after chat events,
 *   and the org's chat labels are held here for the list, the thread and the filters.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import type { Task } from '#shared/task/task.schemas.ts';
import type { Notification } from '#shared/notification/notification.schemas.ts';
import type { BulkJob } from '#shared/bulk/bulk-job.schemas.ts';
import type { ChatLabel } from '#shared/chat/chat.schemas.ts';
import { api, errorMessage, withTicketField, type ChatCounts } from '../lib/api.ts';
import { getConfig } from '../lib/config.ts';
import { getIdToken } from '../lib/auth.ts';
import { RealtimeSocket, type RealtimeEvent, type SocketState } from '../lib/socket.ts';
import type { WaWebSessionView } from '#shared/phone/phone.schemas.ts';
import { chatMatchesFilter, filterFromSearch, filterKey, patchLatestMessage, upsertChats, type ChatFilter } from '../features/chats/api/chats.ts';
import { useSession } from './session.tsx';
import { chatIsStaleFor } from '../features/chats/api/messageActions.ts';
import { triggerSessionExpired } from './sessionExpiry.ts';
import { attachSocket, handleSessionEvent, sessionId } from './activeSession.ts';

export type InboxEvent =
  | { kind: 'message'; type: string; chatId: string; message: Message }
  | { kind: 'chat'; type: string; chat: Chat }
  | { kind: 'ticket'; type: string; ticket: Ticket }
  /** task.created / task.updated (actions) and task.reminder_due (remind_at) */
  | { kind: 'task'; type: string; task: Task; actions?: string[]; remindAt?: number | null }
  /** a teammate started or stopped typing in a chat (chat.typing; `at` epoch ms, server clock) */
  | { kind: 'typing'; chatId: string; email: string; memberName: string | null; state: 'start' | 'stop'; at: number }
  /** an in-app notification for me (notification.created: mentions, assignments, …) */
  | { kind: 'notification'; notification: Notification }
  /** progress of one of my bulk jobs (bulk_job.updated, sent to the job's creator only) */
  | { kind: 'bulk_job'; job: BulkJob }
  /** a WhatsApp Web number's session state, with its QR while linking (phone.session_updated, admins only) */
  | { kind: 'phone_session'; session: WaWebSessionView }
  | { kind: 'resync' };

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
  /** fetch the list's first page again; resolves false when that failed */
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

const MESSAGE_WITH_CHAT = new Set(['message.received', 'message.sent']);
/** spec §9: chats are first fetched 1000 at a time */
const FIRST_PAGE = 1000;
const NEXT_PAGE = 500;

/** The filters of a /chats URL the app was opened at (so a reload keeps them), else All. */
function initialFilter(): ChatFilter {
  if (typeof window === 'undefined' || !window.location.pathname.startsWith('/chats')) return { state: 'open' };
  return filterFromSearch(new URLSearchParams(window.location.search));
}
// private notes carry only the message (they never move the chat in the list)
const MESSAGE_ONLY = new Set(['message.status_updated', 'message.updated', 'note.created', 'note.deleted']);
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
  const socketRef = useRef<RealtimeSocket | null>(null);
  const { user } = useSession();
  const [filter, setFilterState] = useState<ChatFilter>(initialFilter);
  /** chats the server listed for the current filter */
  const [pageIds, setPageIds] = useState<ReadonlySet<string>>(() => new Set());
  /** chats pushed or changed since the filter was set (they are in the list while they match it) */
  const [liveIds, setLiveIds] = useState<ReadonlySet<string>>(() => new Set());
  const [counts, setCounts] = useState<ChatCounts | null>(null);
  const [labels, setLabels] = useState<ChatLabel[]>([]);
  const countsTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const reloadCounts = useCallback(() => {
    if (countsTimer.current) clearTimeout(countsTimer.current);
    countsTimer.current = null;
    api
      .chatCounts(orgId)
      .then(setCounts)
      .catch((e) => console.warn('chat counts:', errorMessage(e)));
  }, [orgId]);
  /** counts again ~1 s after the last burst of chat events starts (one request per burst) */
  const refreshCountsSoon = useCallback(() => {
    if (countsTimer.current) return;
    countsTimer.current = setTimeout(reloadCounts, 1000);
  }, [reloadCounts]);
  useEffect(() => () => {
    if (countsTimer.current) clearTimeout(countsTimer.current);
  }, []);

  const reloadLabels = useCallback(() => {
    api
      .chatLabels(orgId)
      .then(setLabels)
      .catch((e) => console.warn('chat labels:', errorMessage(e)));
  }, [orgId]);
  useEffect(() => {
    reloadCounts();
    reloadLabels();
  }, [reloadCounts, reloadLabels]);

  // a chat pushed with a label created since we loaded them: fetch the labels again (once at a time)
  const labelsRef = useRef(labels);
  labelsRef.current = labels;
  const labelsAsked = useRef(new Set<string>());
  /** Merge live snapshots (socket, our own writes) and let them into the list while they match. */
  const mergeLive = useCallback(
    (incoming: Chat[]) => {
      if (incoming.length === 0) return;
      setChats((prev) => upsertChats(prev, incoming));
      setLiveIds((prev) => (incoming.every((c) => prev.has(c.chat_id)) ? prev : new Set([...prev, ...incoming.map((c) => c.chat_id)])));
      const unknown = incoming.flatMap((c) => c.label_ids ?? []).filter((id) => !labelsRef.current.some((l) => l.label_id === id) && !labelsAsked.current.has(id));
      if (unknown.length) {
        for (const id of unknown) labelsAsked.current.add(id);
        reloadLabels();
      }
    },
    [reloadLabels],
  );

  const filterRef = useRef(filter);
  filterRef.current = filter;
  const setFilter = useCallback((f: ChatFilter) => {
    if (filterKey(filterRef.current) === filterKey(f)) return;
    filterRef.current = f;
    setFilterState(f);
    setPageIds(new Set());
    setLiveIds(new Set());
    setCursor(null);
    setLoadMoreError(null);
    setStatus('loading');
  }, []);

  const emit = useCallback((e: InboxEvent) => {
    for (const fn of listeners.current) {
      try {
        fn(e);
      } catch (err) {
        console.error('inbox listener failed', err);
      }
    }
  }, []);

  const reload = useCallback((): Promise<boolean> => {
    const gen = ++generation.current;
    setStatus((s) => (s === 'ready' ? s : 'loading'));
    setError(null);
    return api
      .listChats(orgId, null, FIRST_PAGE, filter)
      .then((page) => {
        if (gen !== generation.current) return true;
        // merge: chats pushed over the socket while the page was in flight (or loaded from later
        // pages) are kept; the fresh page wins over older snapshots of the same chats
        setChats((prev) => upsertChats(prev, [...page.pinned, ...page.items]));
        setPageIds(new Set([...page.pinned, ...page.items].map((c) => c.chat_id)));
        setCursor(page.cursor);
        setLoadMoreError(null);
        setStatus('ready');
        return true;
      })
      .catch((e) => {
        if (gen !== generation.current) return false;
        setError(errorMessage(e));
        setStatus((s) => (s === 'ready' ? s : 'error'));
        return false;
      });
  }, [orgId, filter]);

  const loadMore = useCallback(() => {
    if (!cursor || loadingMoreRef.current) return;
    const gen = generation.current;
    loadingMoreRef.current = true;
    setLoadingMore(true);
    setLoadMoreError(null);
    api
      .listChats(orgId, cursor, NEXT_PAGE, filter)
      .then((page) => {
        if (gen !== generation.current) return;
        setChats((prev) => upsertChats(prev, page.items));
        setPageIds((prev) => new Set([...prev, ...page.items.map((c) => c.chat_id)]));
        setCursor(page.cursor);
      })
      .catch((e) => {
        if (gen === generation.current) setLoadMoreError(errorMessage(e));
      })
      .finally(() => {
        loadingMoreRef.current = false;
        setLoadingMore(false);
      });
  }, [orgId, cursor, filter]);

  const upsertChat = useCallback((chat: Chat) => mergeLive([chat]), [mergeLive]);

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
            .then((c) => mergeLive([c]))
            .catch((e) => console.warn('chat refetch failed', errorMessage(e)));
        }, 250),
      );
    },
    [orgId, mergeLive],
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
  const reloadCountsRef = useRef(reloadCounts);
  reloadCountsRef.current = reloadCounts;
  useEffect(() => {
    const onEvent = (ev: RealtimeEvent) => {
      if (handleSessionEvent(ev)) return;
      const p = ev.properties as { org_id?: string; chat?: Chat; chat_id?: string; message?: Message; ticket?: Ticket; task?: Task; actions?: unknown; remind_at?: unknown };
      if (p.org_id && p.org_id !== orgId) return;
      if (MESSAGE_WITH_CHAT.has(ev.type) && p.chat && p.message) {
        const chat = p.chat;
        mergeLive([chat]);
        refreshCountsSoon();
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
        mergeLive([chat]);
        refreshCountsSoon();
        emit({ kind: 'chat', type: ev.type, chat });
      } else if (ev.type === 'phone.session_updated') {
        const s = ev.properties as unknown as WaWebSessionView;
        if (s && typeof s.phone_id === 'string') emit({ kind: 'phone_session', session: { phone_id: s.phone_id, state: s.state, qr: s.qr ?? null, detail: s.detail ?? null, at: s.at } });
      } else if (ev.type === 'bulk_job.updated') {
        const job = (ev.properties as { job?: BulkJob }).job;
        if (job && typeof job === 'object') emit({ kind: 'bulk_job', job });
      } else if (ev.type === 'notification.created') {
        const n = (ev.properties as { notification?: Notification }).notification;
        if (n && typeof n === 'object') emit({ kind: 'notification', notification: n });
      } else if (TICKET_EVENTS.has(ev.type) && p.ticket && typeof p.ticket === 'object') {
        emit({ kind: 'ticket', type: ev.type, ticket: p.ticket });
      } else if (ev.type === 'chat.typing' && typeof p.chat_id === 'string') {
        const t = ev.properties as { email?: unknown; member_name?: unknown; state?: unknown; at?: unknown };
        if (typeof t.email === 'string' && (t.state === 'start' || t.state === 'stop')) {
          emit({ kind: 'typing', chatId: p.chat_id, email: t.email, memberName: typeof t.member_name === 'string' ? t.member_name : null, state: t.state, at: typeof t.at === 'number' ? t.at : Date.now() });
        }
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
    let detachSession = () => {};
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
        reloadCountsRef.current();
        emit({ kind: 'resync' });
      },
      onAuthLost: triggerSessionExpired,
      // single active session (app/activeSession.ts): claim or check on every open
      sessionId: sessionId(),
      onOpen: () => {
        detachSession();
        detachSession = attachSocket((frame) => socket.send(frame));
      },
    });
    socketRef.current = socket;
    socket.start();
    return () => {
      detachSession();
      socket.stop();
      if (socketRef.current === socket) socketRef.current = null;
    };
  }, [orgId, emit, refetchChat, mergeLive, refreshCountsSoon]);

  const subscribe = useCallback((fn: (e: InboxEvent) => void) => {
    listeners.current.add(fn);
    return () => {
      listeners.current.delete(fn);
    };
  }, []);
  const send = useCallback((frame: unknown) => socketRef.current?.send(frame) ?? false, []);

  const me = user.email;
  const listed = useMemo(() => {
    const now = Date.now();
    const inList = chats.filter((c) => (pageIds.has(c.chat_id) || liveIds.has(c.chat_id)) && chatMatchesFilter(c, filter, me, now));
    // pinned on top (their own newest-first order), then the rest
    return [...inList.filter((c) => c.is_pinned), ...inList.filter((c) => !c.is_pinned)];
  }, [chats, pageIds, liveIds, filter, me]);

  const value = useMemo<Inbox>(
    () => ({
      orgId,
      chats,
      listChats: listed,
      filter,
      setFilter,
      counts,
      reloadCounts,
      labels,
      reloadLabels,
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
      send,
    }),
    [orgId, listed, chats, filter, setFilter, counts, reloadCounts, labels, reloadLabels, status, error, cursor, loadingMore, loadMoreError, socketState, socketEverOpen, reload, loadMore, upsertChat, noteMessage, subscribe, send],
  );
  return <InboxContext.Provider value={value}>{children}</InboxContext.Provider>;
}
