/**
 * The open chat: header, messages grouped by day (oldest at the top), composer.
 *
 * Data: GET .../messages pages (newest first, reversed for display); older pages load when scrolled
 * to the top. Realtime events for this chat are upserted by unique_id. Sending adds an optimistic
 * bubble (ack 0) replaced by the POST answer. The chat is marked read when opened with unread
 * messages, and when messages arrive while it is open and the window is focused.
 * Scroll stays at the bottom on new messages only if the agent was already there.
 * Tickets: the chat's tickets (GET /chats/{id}/tickets, kept live from ticket.* events) feed the
 * message menus (create / attach) and the closable details panel beside the thread.
 * Tasks: the header's 'Create task' opens the task panel's New Task linked to this chat.
 * Message actions (spec §5, §8): react (optimistic; reverted with 'Failed to send reaction!' when
 * the call fails or a later `reaction_error` says WhatsApp refused it), flag / unflag / remove flag,
 * pin (with a duration) / unpin, refresh, copy id, forward (dialog), download; the chat's live pins
 * are listed above the messages and jump to the message when clicked.
 * Edit (inline in the bubble) and delete for everyone (after a confirmation, with spec §8's toasts):
 * useEditActions.ts, MessageEdit.tsx.
 * Reply (menu, hover button, R on a focused message): the quote shows above the composer (Esc or ×
 * cancels) and the send carries quoted_message_id = the quoted wamid; a reply's quote block jumps to
 * the original like the pinned bar does.
 */
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { ACK } from '#shared/message/message.schemas.ts';
import { api, ApiError, errorMessage } from '../../../lib/api.ts';
import { useToast } from '../../../app/toast.tsx';
import { livePins, withOurReaction, withReactionRestored, type ActorInfo } from '../api/messageActions.ts';
import type { BubbleAction } from './MessageBubble.tsx';
import { ForwardDialog, PinDialog, PinnedBar, type PinDuration } from './MessageActionsUI.tsx';
import { useDownload } from '../../media/index.ts';
import { LOCAL_PREFIX, removeMessage, settleOptimistic, upsertMessages, isLocal } from '../api/messages.ts';
import { chatDisplayName, chatNumber, dayKey, dayLabel, formatPhone, isGroupChat } from '../../../lib/format.ts';
import { useInbox, type InboxEvent } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { Avatar } from './Avatar.tsx';
import { MessageBubble } from './MessageBubble.tsx';
import { Composer, type ComposerHandle } from './Composer.tsx';
import { useTyping } from '../hooks/useTyping.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import { useChatTickets } from '../hooks/useChatTickets.ts';
import type { TicketAction } from './MessageBubble.tsx';
import { AttachTicketDialog, CreateTicketDialog } from '../../tickets/index.ts';
import { ChatTicketsPanel } from '../../tickets/index.ts';
import { useTaskActions } from '../../tasks/index.ts';
import { ChatActions } from './ChatActions.tsx';
import { maskPhone } from '#shared/chat/chat-access.rules.ts';
import { useNoteActions } from '../hooks/useNoteActions.ts';
import { useEditActions } from '../hooks/useEditActions.ts';
import { DeleteMessageDialog } from './MessageEdit.tsx';

const PANEL_KEY = 'chorus.chat_details_open';
function initialPanelOpen(): boolean {
  try {
    const v = localStorage.getItem(PANEL_KEY);
    if (v !== null) return v === '1' && !window.matchMedia('(max-width: 768px)').matches;
  } catch {
    /* no storage */
  }
  return window.matchMedia('(min-width: 1280px)').matches;
}

const PAGE = 50;
/** spec §8 */
const REACTION_FAILED = 'Failed to send reaction!';
/** spec §8 'Flag': flagged, and the unflag and remove-flag equivalents */
const FLAG_WORDS = {
  flag: { ok: 'Message flagged successfully!', error: 'Error while flagging message' },
  unflag: { ok: 'Message unflagged successfully!', error: 'Error while unflagging message' },
  remove: { ok: 'Message flag removed successfully!', error: 'Error while removing message flag' },
} as const;

/** Copy text (Clipboard API, else the old execCommand route). @returns whether it worked */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
    return ok;
  }
}
const NEAR_BOTTOM_PX = 48;
const NEAR_TOP_PX = 120;

function useWindowFocused(): boolean {
  const [focused, setFocused] = useState(() => document.hasFocus());
  useEffect(() => {
    const update = () => setFocused(document.hasFocus() && document.visibilityState === 'visible');
    window.addEventListener('focus', update);
    window.addEventListener('blur', update);
    document.addEventListener('visibilitychange', update);
    return () => {
      window.removeEventListener('focus', update);
      window.removeEventListener('blur', update);
      document.removeEventListener('visibilitychange', update);
    };
  }, []);
  return focused;
}

/** id of an optimistic bubble, sent as `client_id` so the stored copy replaces it wherever it arrives first */
const clientId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

export function Thread({ chatId }: { chatId: string }) {
  const navigate = useNavigate();
  const { org, user } = useSession();
  const toast = useToast();
  const download = useDownload();
  const { openNew: openNewTask } = useTaskActions();
  const inbox = useInbox();
  const { subscribe, upsertChat, noteMessage } = inbox;
  const listChat = inbox.chats.find((c) => c.chat_id === chatId) ?? null;
  const [fetchedChat, setFetchedChat] = useState<Chat | null>(null);
  const chat = listChat ?? fetchedChat;
  const inListRef = useRef(false);
  inListRef.current = listChat !== null;

  const [messages, setMessages] = useState<Message[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error' | 'missing'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  // Reply Privately opens this chat with the group message quoted (router state set by the group's thread)
  const location = useLocation();
  const [privateReply] = useState(() => {
    const st = (location.state as { replyPrivately?: { to: string; message: Message; group: string } } | null)?.replyPrivately;
    return st && st.to === chatId ? st : null;
  });
  const [replyTo, setReplyTo] = useState<Message | null>(privateReply?.message ?? null);
  const [showJump, setShowJump] = useState(false);
  const [ticketDialog, setTicketDialog] = useState<{ kind: TicketAction; message: Message } | null>(null);
  const [panelOpen, setPanelOpen] = useState(initialPanelOpen);
  const [pinFor, setPinFor] = useState<Message | null>(null);
  const [forwardFor, setForwardFor] = useState<Message | null>(null);
  const panelToggle = useRef<HTMLButtonElement>(null);
  const typing = useTyping(chatId);

  const scrollRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<ComposerHandle>(null);
  const atBottom = useRef(true);
  const forceBottom = useRef(true);
  const prepend = useRef<{ height: number; top: number } | null>(null);
  const loadingOlderRef = useRef(false);
  const cursorRef = useRef<string | null>(null);
  cursorRef.current = cursor;
  const messagesRef = useRef<Message[]>([]);
  messagesRef.current = messages;

  // ---- loading ---------------------------------------------------------------------------
  const loadNewest = useCallback(
    async (mode: 'initial' | 'resync') => {
      if (mode === 'initial') {
        setStatus('loading');
        setError(null);
      }
      try {
        const [page, fetched] = await Promise.all([
          api.listMessages(org.org_id, chatId, null, PAGE),
          mode === 'initial' || !inListRef.current ? api.getChat(org.org_id, chatId) : Promise.resolve(null),
        ]);
        if (fetched) {
          setFetchedChat(fetched);
          upsertChat(fetched);
        }
        // after a reconnect the fresh page is merged; if it does not reach what is shown there is a
        // gap, so the thread starts over from that page (optimistic bubbles are always kept)
        const known = new Set(messagesRef.current.map((m) => m.unique_id));
        const restart = mode === 'initial' || (page.cursor !== null && !page.items.some((m) => known.has(m.unique_id)));
        setMessages((prev) => upsertMessages(restart ? prev.filter(isLocal) : prev, page.items));
        if (restart) setCursor(page.cursor);
        setStatus('ready');
      } catch (e) {
        if (mode === 'resync') return; // keep what is shown; the next event or reconnect will fix it
        if (e instanceof ApiError && (e.status === 404 || e.status === 403)) setStatus('missing');
        else setStatus('error');
        setError(errorMessage(e));
      }
    },
    [org.org_id, chatId, upsertChat],
  );

  useEffect(() => {
    forceBottom.current = true;
    void loadNewest('initial');
  }, [loadNewest]);

  const loadOlder = useCallback(async () => {
    const c = cursorRef.current;
    if (!c || loadingOlderRef.current) return;
    loadingOlderRef.current = true;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const page = await api.listMessages(org.org_id, chatId, c, PAGE);
      const el = scrollRef.current;
      if (el) prepend.current = { height: el.scrollHeight, top: el.scrollTop };
      setMessages((prev) => upsertMessages(prev, page.items));
      setCursor(page.cursor);
    } catch (e) {
      setOlderError(errorMessage(e));
    } finally {
      loadingOlderRef.current = false;
      setLoadingOlder(false);
    }
  }, [org.org_id, chatId]);

  // ---- reactions in flight -----------------------------------------------------------------
  /** our reactions sent from this browser and not settled yet: when sent, the server's time, the last error known then */
  const pendingReactions = useRef(new Map<string, { startedAt: number; serverAt: number | null; errAt: number | null }>());
  /**
   * A message.updated for a message we reacted to: a `reaction_error` newer than our action means
   * WhatsApp refused it (the server has already put the reaction back; the snapshot shows that);
   * our reaction marked sent (ack 1) settles it.
   */
  const settleReaction = useCallback(
    (m: Message) => {
      const p = pendingReactions.current.get(m.unique_id);
      if (!p) return;
      const err = m.reaction_error;
      if (err && err.at !== p.errAt && err.at >= (p.serverAt ?? p.startedAt - 60_000)) {
        pendingReactions.current.delete(m.unique_id);
        toast.show(REACTION_FAILED, 'error');
        return;
      }
      const ours = Object.values(m.reactions ?? {}).find((r) => r.timestamp === p.serverAt);
      if (p.serverAt !== null && ours?.ack === 1) pendingReactions.current.delete(m.unique_id);
    },
    [toast],
  );

  // ---- realtime --------------------------------------------------------------------------
  useEffect(
    () =>
      subscribe((e: InboxEvent) => {
        if (e.kind === 'resync') void loadNewest('resync');
        else if (e.kind === 'message' && e.chatId === chatId) {
          setMessages((prev) => upsertMessages(prev, [e.message]));
          if (e.type === 'message.updated') settleReaction(e.message);
        }
      }),
    [subscribe, chatId, loadNewest, settleReaction],
  );

  // ---- tickets of this chat -------------------------------------------------------------
  const { tickets: chatTickets, status: ticketsStatus, error: ticketsError, reload: loadTickets, replaceTicket } = useChatTickets(org.org_id, chatId);
  const onTicketAction = useCallback((kind: TicketAction, m: Message) => setTicketDialog({ kind, message: m }), []);
  const setPanel = useCallback((open: boolean) => {
    setPanelOpen(open);
    try {
      localStorage.setItem(PANEL_KEY, open ? '1' : '0');
    } catch {
      /* not remembered */
    }
    if (!open) requestAnimationFrame(() => panelToggle.current?.focus());
  }, []);
  const openTickets = (chatTickets ?? []).filter((t) => t.status !== 'closed').length;

  // ---- read receipts ---------------------------------------------------------------------
  const focused = useWindowFocused();
  const unread = chat ? totalUnread(chat) : 0;
  const openedRef = useRef(false);
  const readKey = useRef<string | null>(null);
  useEffect(() => {
    if (!chat) return;
    const justOpened = !openedRef.current;
    openedRef.current = true;
    if (unread === 0) return;
    // opening a chat reads it; later arrivals are read only while the agent is looking
    if (!justOpened && !focused) return;
    const key = `${chat.latest_message_timestamp}:${unread}`;
    if (readKey.current === key) return;
    readKey.current = key;
    api
      .markRead(org.org_id, chatId)
      .then((c) => upsertChat(c))
      .catch((e) => console.warn('mark read failed', e));
  }, [chat, unread, focused, org.org_id, chatId, upsertChat]);

  // ---- scrolling -------------------------------------------------------------------------
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    atBottom.current = bottom;
    setShowJump(!bottom);
    if (el.scrollTop < NEAR_TOP_PX && cursorRef.current && !loadingOlderRef.current) void loadOlder();
  }, [loadOlder]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    if (prepend.current) {
      el.scrollTop = el.scrollHeight - prepend.current.height + prepend.current.top;
      prepend.current = null;
    } else if (forceBottom.current || atBottom.current) {
      el.scrollTop = el.scrollHeight;
      if (status === 'ready') forceBottom.current = false;
      atBottom.current = true;
    }
  }, [messages, status]);

  // a first page that does not fill the pane: fetch older right away
  useEffect(() => {
    const el = scrollRef.current;
    if (status === 'ready' && el && cursor && !loadingOlder && !olderError && el.scrollHeight <= el.clientHeight + NEAR_TOP_PX) void loadOlder();
  }, [status, cursor, messages, loadingOlder, olderError, loadOlder]);

  const jumpToBottom = () => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  // ?message=<unique_id> (from a ticket's 'Jump to chat'): show that message once it is loaded
  const [search, setSearch] = useSearchParams();
  const jumpTo = search.get('message');
  useEffect(() => {
    if (!jumpTo || status !== 'ready') return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-unique-id="${CSS.escape(jumpTo)}"]`);
    if (!el) {
      if (cursorRef.current && !loadingOlderRef.current) void loadOlder();
      else if (!cursorRef.current) setSearch({}, { replace: true });
      return;
    }
    forceBottom.current = false;
    atBottom.current = false;
    el.scrollIntoView({ block: 'center' });
    el.classList.remove('flash');
    void el.offsetWidth;
    el.classList.add('flash');
    setSearch({}, { replace: true });
  }, [jumpTo, status, messages, loadOlder, setSearch]);

  // focus the composer on open (not on phones, where it would pop the keyboard over the thread)
  useEffect(() => {
    if (!window.matchMedia('(max-width: 768px)').matches) composerRef.current?.focus();
  }, [chatId]);

  // ---- sending ---------------------------------------------------------------------------
  const send = useCallback(
    async (text: string) => {
      const cid = clientId();
      const id = LOCAL_PREFIX + cid;
      const quoted = replyTo;
      const optimistic: Message = {
        org_id: org.org_id,
        chat_id: chatId,
        unique_id: id,
        org_phone: chat?.org_phone ?? '',
        phone_id: chat?.phone_id ?? '',
        body: text,
        timestamp: Date.now(),
        from_me: true,
        ack: ACK.PENDING,
        message_type: 'text',
        quoted_message: quoted?.message_id
          ? { message_id: quoted.message_id, unique_id: quoted.unique_id, body: quoted.body, author: quoted.author, from_me: quoted.from_me, ...(quoted.chat_id !== chatId ? { chat_id: quoted.chat_id, chat_name: privateReply?.group ?? null } : {}) }
          : null,
      };
      forceBottom.current = true;
      setReplyTo(null);
      setMessages((prev) => upsertMessages(prev, [optimistic]));
      try {
        const stored = await api.sendMessage(org.org_id, chatId, {
          body: text,
          client_id: cid,
          ...(quoted?.message_id ? { quoted_message_id: quoted.message_id } : {}),
          // reply privately: the quote is a group message (stored for the team, not sent to WhatsApp as context)
          ...(quoted?.message_id && quoted.chat_id !== chatId ? { quoted_chat_id: quoted.chat_id } : {}),
        });
        setMessages((prev) => settleOptimistic(prev, id, stored));
        noteMessage(chatId, stored);
      } catch (e) {
        setMessages((prev) => removeMessage(prev, id));
        setReplyTo((r) => r ?? quoted);
        throw e;
      }
    },
    [org.org_id, chatId, chat?.org_phone, chat?.phone_id, replyTo, noteMessage, privateReply?.group],
  );

  const onReply = useCallback((m: Message) => {
    setReplyTo(m);
    composerRef.current?.focus();
  }, []);

  // ---- message actions -------------------------------------------------------------------
  const actor = useMemo<ActorInfo>(() => ({ email: user.email, role: org.role, phones: org.phones, maskPhoneNumbers: org.mask_phone_numbers ?? false }), [user.email, org.role, org.phones, org.mask_phone_numbers]);
  const chatRef = useRef(chat);
  chatRef.current = chat;
  const applyChat = useCallback(
    (c: Chat) => {
      upsertChat(c);
      setFetchedChat((prev) => (prev ? c : prev));
    },
    [upsertChat],
  );
  const applyMessage = useCallback((m: Message) => setMessages((prev) => upsertMessages(prev, [m])), []);
  const notes = useNoteActions(chatId, applyMessage);
  const edits = useEditActions(chatId, applyMessage);

  const react = useCallback(
    async (m: Message, emoji: string) => {
      const ours = chatRef.current?.org_phone ?? m.org_phone;
      const cur = messagesRef.current.find((x) => x.unique_id === m.unique_id) ?? m;
      const previous = cur.reactions?.[ours] ?? null;
      if ((previous?.reaction ?? '') === emoji) return;
      const at = Date.now();
      pendingReactions.current.set(m.unique_id, { startedAt: at, serverAt: null, errAt: cur.reaction_error?.at ?? null });
      // still showing what this action put there (no newer snapshot arrived meanwhile)?
      const untouched = (x: Message | undefined) => !!x && (emoji ? x.reactions?.[ours]?.timestamp === at : !x.reactions?.[ours]);
      setMessages((prev) => prev.map((x) => (x.unique_id === m.unique_id ? withOurReaction(x, ours, emoji, user.email, at) : x)));
      try {
        const stored = await api.reactToMessage(org.org_id, chatId, m.unique_id, emoji);
        const p = pendingReactions.current.get(m.unique_id);
        if (p?.startedAt === at) p.serverAt = stored.reactions?.[ours]?.timestamp ?? at;
        if (!emoji) pendingReactions.current.delete(m.unique_id);
        setMessages((prev) => (untouched(prev.find((x) => x.unique_id === m.unique_id)) ? upsertMessages(prev, [stored]) : prev));
      } catch (e) {
        console.warn('reaction failed', errorMessage(e));
        if (pendingReactions.current.get(m.unique_id)?.startedAt === at) pendingReactions.current.delete(m.unique_id);
        setMessages((prev) => prev.map((x) => (x.unique_id === m.unique_id && untouched(x) ? withReactionRestored(x, ours, previous) : x)));
        toast.show(REACTION_FAILED, 'error');
      }
    },
    [org.org_id, chatId, user.email, toast],
  );

  const setFlag = useCallback(
    async (m: Message, status: boolean | null) => {
      const words = status === true ? FLAG_WORDS.flag : status === false ? FLAG_WORDS.unflag : FLAG_WORDS.remove;
      try {
        const r = await api.flagMessage(org.org_id, chatId, m.unique_id, status);
        applyMessage(r.message);
        applyChat(r.chat);
        toast.show(words.ok, 'success');
      } catch (e) {
        console.warn('flag failed', errorMessage(e));
        toast.show(words.error, 'error');
      }
    },
    [org.org_id, chatId, applyMessage, applyChat, toast],
  );

  const setPin = useCallback(
    async (m: Message, pin: boolean, duration: PinDuration = '7d'): Promise<boolean> => {
      try {
        const r = await api.pinMessage(org.org_id, chatId, m.unique_id, pin, duration);
        applyMessage(r.message);
        applyChat(r.chat);
        toast.show(pin ? 'Message pinned successfully!' : 'Message unpinned successfully!', 'success');
        return true;
      } catch (e) {
        console.warn('pin failed', errorMessage(e));
        toast.show(pin ? 'Error while pinning message' : 'Error while unpinning message', 'error');
        return false;
      }
    },
    [org.org_id, chatId, applyMessage, applyChat, toast],
  );

  const onAction = useCallback(
    (action: BubbleAction, m: Message, emoji?: string) => {
      switch (action) {
        case 'react':
          void react(m, emoji ?? '');
          break;
        case 'flag':
          void setFlag(m, true);
          break;
        case 'unflag':
          void setFlag(m, false);
          break;
        case 'remove_flag':
          void setFlag(m, null);
          break;
        case 'pin':
          setPinFor(m);
          break;
        case 'unpin':
          void setPin(m, false);
          break;
        case 'forward':
          setForwardFor(m);
          break;
        case 'reply_privately': {
          const group = chatRef.current ? chatDisplayName(chatRef.current) : 'group';
          api
            .replyPrivately(org.org_id, chatId, m.unique_id)
            .then((r) => navigate(`/chats/${encodeURIComponent(r.chat.chat_id)}`, { state: { replyPrivately: { to: r.chat.chat_id, message: m, group } } }))
            .catch((e) => toast.show(errorMessage(e), 'error'));
          break;
        }
        case 'download':
          void download(m);
          break;
        case 'delete_note':
          void notes.deleteNote(m);
          break;
        case 'edit':
          edits.startEdit(m);
          break;
        case 'delete':
          edits.askDelete(m);
          break;
        case 'copy_id': {
          const id = m.message_id || m.unique_id;
          void copyText(id).then((ok) => toast.show(ok ? `Message ID - ${id} copied to clipboard` : 'Could not copy the message ID', ok ? 'success' : 'error'));
          break;
        }
        case 'refresh':
          api
            .refreshMessage(org.org_id, chatId, m.unique_id)
            .then((fresh) => {
              applyMessage(fresh);
              toast.show('Message refreshed successfully!', 'success');
            })
            .catch((e) => {
              console.warn('refresh failed', errorMessage(e));
              toast.show('Error while refreshing message', 'error');
            });
          break;
      }
    },
    [react, setFlag, setPin, download, toast, org.org_id, chatId, applyMessage, notes.deleteNote, edits.startEdit, edits.askDelete, navigate],
  );

  const forward = useCallback(
    async (m: Message, chatIds: string[]): Promise<string | null> => {
      try {
        const { messages: sent, failed } = await api.forwardMessage(org.org_id, chatId, m.unique_id, chatIds);
        for (const x of sent) {
          noteMessage(x.chat_id, x);
          if (x.chat_id === chatId) applyMessage(x);
        }
        if (sent.length) toast.show(sent.length > 1 ? `Message forwarded to ${sent.length} chats` : 'Message forwarded', 'success');
        // chats the forward did not reach stay in the dialog with the reason, the rest went out
        if (failed.length) {
          const name = (id: string) => {
            const c = inbox.chats.find((x) => x.chat_id === id);
            return c ? chatDisplayName(c) : formatPhone(chatNumber(id));
          };
          return `Not forwarded to ${failed.map((f) => `${name(f.chat_id)}: ${f.reason}`).join('; ')}`;
        }
        return null;
      } catch (e) {
        return errorMessage(e);
      }
    },
    [org.org_id, chatId, noteMessage, applyMessage, toast, inbox.chats],
  );

  // pins: listed until they expire (re-checked every minute)
  const [clock, setClock] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setClock(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  const pins = useMemo(() => livePins(chat, clock), [chat, clock]);
  const jumpToMessage = useCallback((uniqueId: string) => setSearch({ message: uniqueId }, { replace: true }), [setSearch]);

  // ---- render ----------------------------------------------------------------------------
  const visible = useMemo(() => messages.filter((m) => m.message_type !== 'reaction'), [messages]);
  // quoted messages by wamid: the quote block names the original's type when the quote has no text
  const byWamid = useMemo(() => new Map(messages.filter((m) => m.message_id).map((m) => [m.message_id!, m])), [messages]);
  const name = chat ? chatDisplayName(chat) : formatPhone(chatNumber(chatId));
  const group = chat ? isGroupChat(chat) : chatId.endsWith('@g.us');
  const number = group ? null : formatPhone(org.mask_phone_numbers && org.role !== 'admin' ? maskPhone(chatNumber(chatId)) : chatNumber(chatId));

 return (
    <div className={`thread-wrap ${panelOpen ? 'with-panel' : ''}`}>
    <section
      className="thread"
      data-testid="thread"
      data-chat-id={chatId}
      aria-label={`Chat with ${name}`}
      onKeyDown={(e) => {
        // Esc cancels a pending reply first (from a focused message too); the next Esc closes the chat
        if (e.key === 'Escape' && replyTo && !e.defaultPrevented) {
          e.preventDefault();
          setReplyTo(null);
          composerRef.current?.focus();
        }
      }}
    >
      <header className="thread-header">
        <button type="button" className="icon-btn back-btn" aria-label="Back to chats" onClick={() => navigate('/chats')}>
          <Icon name="back" />
        </button>
        <Avatar name={name} id={chatId} size={40} />
        <div className="thread-title">
          <h2 title={name}>{name}</h2>
          <div className="thread-sub">
            {number && number !== name && <span>{number}</span>}
            {number && number === name && chat?.chat_name == null && <span className="muted">No saved name</span>}
            {group && <span>Group</span>}
            {chat?.org_phone && <span className="phone-tag" title="Your WhatsApp number in this chat">via {formatPhone(chat.org_phone)}</span>}
          </div>
        </div>
        <ChatActions chatId={chatId} />
        <button
          type="button"
          className="icon-btn"
          aria-label="Create a task for this chat"
          title="Create task"
          data-testid="chat-create-task"
          onClick={() =>
            openNewTask({
              title: `Follow up with ${name}`.slice(0, 150),
              associated: { id: chatId, type: 'chat', object: { chat_id: chatId, org_id: org.org_id, org_phone: chat?.org_phone ?? null } },
            })
          }
        >
          <Icon name="task-add" />
        </button>
        <button
          ref={panelToggle}
          type="button"
          className={`icon-btn panel-toggle ${panelOpen ? 'active' : ''}`}
          aria-label={`Chat details and tickets${openTickets ? `, ${openTickets} open` : ''}`}
          title="Details and tickets"
          aria-pressed={panelOpen}
          aria-controls="chat-details-panel"
          data-testid="chat-details-toggle"
          onClick={() => setPanel(!panelOpen)}
        >
          <Icon name="tickets" />
          {openTickets > 0 && <span className="icon-badge">{openTickets}</span>}
        </button>
        <button type="button" className="icon-btn close-thread" aria-label="Close chat (Esc)" title="Close chat (Esc)" onClick={() => navigate('/chats')}>
          <Icon name="close" />
        </button>
      </header>

      <PinnedBar pins={pins} onJump={jumpToMessage} />
      <div className="thread-body">
        <div className="thread-scroll" ref={scrollRef} onScroll={onScroll} role="log" aria-label="Messages" aria-busy={status === 'loading'}>
          {status === 'loading' && (
            <div className="thread-skeleton" aria-label="Loading messages">
              {[0, 1, 2, 3, 4, 5].map((i) => (
                <div key={i} className={`skeleton-bubble ${i % 2 ? 'out' : 'in'}`} />
              ))}
            </div>
          )}
          {(status === 'error' || status === 'missing') && (
            <div className="state-box" role="alert">
              <p>{status === 'missing' ? 'This chat does not exist, or you cannot see it.' : `Could not load this chat: ${error}`}</p>
              {status === 'error' ? (
                <button type="button" className="btn" onClick={() => void loadNewest('initial')}>
                  Retry
                </button>
              ) : (
                <button type="button" className="btn" onClick={() => navigate('/chats')}>
                  Back to chats
                </button>
              )}
            </div>
          )}
          {status === 'ready' && (
            <>
              <div className="thread-top">
                {loadingOlder && <span className="muted small">Loading older messages…</span>}
                {olderError && (
                  <span className="small">
                    Could not load older messages.{' '}
                    <button type="button" className="link-btn" onClick={() => void loadOlder()}>
                      Retry
                    </button>
                  </span>
                )}
                {!cursor && !loadingOlder && <span className="muted small">{visible.length ? 'Start of the conversation' : 'No messages yet. Send the first one below.'}</span>}
              </div>
              {visible.map((m, i) => {
                const prev = visible[i - 1];
                const newDay = !prev || dayKey(prev.timestamp) !== dayKey(m.timestamp);
                return (
                  <Fragment key={m.unique_id}>
                    {newDay && (
                      <div className="day-sep" role="separator">
                        <span>{dayLabel(m.timestamp)}</span>
                      </div>
                    )}
                    <MessageBubble
                      m={m}
                      chat={chat}
                      onReply={onReply}
                      onJump={jumpToMessage}
                      quotedOriginal={m.quoted_message ? byWamid.get(m.quoted_message.message_id) : undefined}
                      chatTickets={chatTickets}
                      onTicketAction={onTicketAction}
                      actor={actor}
                      onAction={onAction}
                      editing={edits.editingId === m.unique_id}
                      onSaveEdit={edits.saveEdit}
                      onCancelEdit={edits.cancelEdit}
                    />
                  </Fragment>
                );
              })}
            </>
          )}
      </div>
      {showJump && status === 'ready' && (
        <button type="button" className="jump-btn" onClick={jumpToBottom} aria-label="Scroll to the latest message">
          ↓
        </button>
      )}
      <div className="typing-indicator" role="status" data-testid="typing-indicator">
        {typing.text}
      </div>
      </div>

      {status !== 'missing' && (
        <Composer
          key={chatId}
          ref={composerRef}
          chatId={chatId}
          chat={chat}
          replyTo={replyTo}
          replyFromGroup={replyTo && replyTo.chat_id !== chatId ? (privateReply?.group ?? null) : null}
          onCancelReply={() => setReplyTo(null)}
          onSend={(text) => {
            typing.onSent();
            return send(text);
          }}
          onTyping={typing.onInput}
          onSendNote={(text, mentions) => {
            typing.onSent();
            return notes.sendNote(text, mentions);
          }}
        />
      )}
    </section>
    {panelOpen && (
      <ChatTicketsPanel tickets={chatTickets} status={ticketsStatus} error={ticketsError} onRetry={loadTickets} onClose={() => setPanel(false)} onChange={replaceTicket} />
    )}
    {pinFor && <PinDialog message={pinFor} onClose={() => setPinFor(null)} onPin={(d) => setPin(pinFor, true, d)} />}
    {edits.deleteFor && <DeleteMessageDialog message={edits.deleteFor} onClose={edits.closeDelete} onDelete={() => void edits.deleteMessage(edits.deleteFor!)} />}
    {forwardFor && <ForwardDialog message={forwardFor} chats={inbox.chats} onClose={() => setForwardFor(null)} onForward={(ids) => forward(forwardFor, ids)} />}
    {ticketDialog?.kind === 'create' && (
      <CreateTicketDialog
        message={ticketDialog.message}
        chat={chat}
        chatTickets={chatTickets ?? []}
        onClose={() => setTicketDialog(null)}
        onCreated={(t) => {
          const uid = ticketDialog.message.unique_id;
          replaceTicket(t);
          setMessages((prev) => {
            const cur = prev.find((x) => x.unique_id === uid);
            return cur ? upsertMessages(prev, [{ ...cur, message_ticket_id: t.ticket_id }]) : prev;
          });
          setTicketDialog(null);
        }}
      />
    )}
    {ticketDialog?.kind === 'attach' && (
      <AttachTicketDialog
        message={ticketDialog.message}
        chatTickets={chatTickets ?? []}
        onClose={() => setTicketDialog(null)}
        onAttached={(r, ticketId) => {
          const uid = ticketDialog.message.unique_id;
          if (r.ticket) replaceTicket(r.ticket);
          setMessages((prev) => {
            const cur = prev.find((x) => x.unique_id === uid);
            if (r.message) return upsertMessages(prev, [r.message]);
            return cur ? upsertMessages(prev, [{ ...cur, message_ticket_id: ticketId }]) : prev;
          });
          setTicketDialog(null);
        }}
      />
    )}
    </div>
  );
}
