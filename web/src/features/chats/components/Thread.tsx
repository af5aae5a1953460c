/**
 * The open chat: header, messages grouped by day (oldest at the top), composer, and the closable
 * details panel with the chat's tickets beside it.
 *
 * Data (hooks/useThreadMessages.ts): the messages are an infinite query over GET .../messages
 * (older pages load when scrolled to the top, hooks/useThreadScroll.ts) that the realtime bridge
 * keeps live; sending adds an optimistic bubble replaced by the POST answer
 * (hooks/useSendMessage.ts). The chat is marked read when opened with unread messages, and when
 * messages arrive while it is open and the window is focused (hooks/useReadReceipts.ts).
 * Tickets: the chat's tickets (hooks/useChatTickets.ts) feed the message menus (create / attach)
 * and the details panel. Message actions (spec §5, §8): hooks/useMessageActions.ts; the chat's
 * live pins are listed above the messages and jump to the message when clicked.
 * Reply (menu, hover button, R on a focused message): the quote shows above the composer (Esc or ×
 * cancels) and the send carries quoted_message_id = the quoted wamid; Reply Privately opens the
 * member's chat with the group message quoted (router state set by the group's thread).
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Message } from '#shared/message/message.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { livePins, type ActorInfo } from '../api/messageActions.ts';
import { findInThread, upsertThread } from '../api/thread-cache.ts';
import { ForwardDialog, PinDialog, PinnedBar } from './MessageActionsUI.tsx';
import { Composer, type ComposerHandle } from './Composer.tsx';
// issue 16: the template picker when the 24-hour window is closed (its own chunk)
import { TemplateComposer, useChatWindow } from '../../templates/index.ts';
import { ScheduleDialog } from '../../scheduled/index.ts';
import type { TicketAction } from './MessageBubble.tsx';
import { DeleteMessageDialog } from './MessageEdit.tsx';
import { MessageList } from './MessageList.tsx';
import { ThreadHeader, threadName } from './ThreadHeader.tsx';
import { AttachTicketDialog, ChatTicketsPanel, CreateTicketDialog } from '../../tickets/index.ts';
// issue 17: pending follow-ups and delayed rule actions of this chat, with cancel
import { PendingFollowUps } from '../../rules/index.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useTyping } from '../hooks/useTyping.ts';
import { useChatTickets } from '../hooks/useChatTickets.ts';
import { useThreadMessages } from '../hooks/useThreadMessages.ts';
import { useThreadScroll } from '../hooks/useThreadScroll.ts';
import { useSendMessage } from '../hooks/useSendMessage.ts';
import { useMessageActions } from '../hooks/useMessageActions.ts';
import { useReadReceipts } from '../hooks/useReadReceipts.ts';
import { useQueryClient } from '@tanstack/react-query';
import { chatKeys } from '../api/keys.ts';

/** issue 18: 'Add to FAQs' opens the FAQ editor, loaded on demand. */
const AddToFaqDialog = lazy(() => import('../../ai/index.ts').then((m) => ({ default: m.AddToFaqDialog })));

const PANEL_KEY = 'chorus.chat_details_open';
// issue 15: the chat's custom properties in the details panel, its own chunk (the /chats budget)
const ChatProperties = lazy(() => import('../../contacts/index.ts').then((m) => ({ default: m.ChatProperties })));
// issue 41 §7: the customer's name, username, number and WhatsApp identifiers, same chunk
const ChatContact = lazy(() => import('../../contacts/index.ts').then((m) => ({ default: m.ChatContact })));
function initialPanelOpen(): boolean {
  try {
    const v = localStorage.getItem(PANEL_KEY);
    if (v !== null) return v === '1' && !window.matchMedia('(max-width: 768px)').matches;
  } catch {
    /* no storage */
  }
  return window.matchMedia('(min-width: 1280px)').matches;
}

/** The details panel's open state, remembered in localStorage; closing it gives focus back to its toggle. */
function useDetailsPanel() {
  const [panelOpen, setPanelOpen] = useState(initialPanelOpen);
  const panelToggle = useRef<HTMLButtonElement>(null);
  const setPanel = useCallback((open: boolean) => {
    setPanelOpen(open);
    try {
      localStorage.setItem(PANEL_KEY, open ? '1' : '0');
    } catch {
      /* not remembered */
    }
    if (!open) requestAnimationFrame(() => panelToggle.current?.focus());
  }, []);
  return { panelOpen, setPanel, panelToggle };
}

/** The chat's pins, listed until they expire (re-checked every minute). */
function usePinClock(): number {
  const [clock, setClock] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setClock(Date.now()), 60_000);
    return () => clearInterval(t);
  }, []);
  return clock;
}

export function Thread({ chatId }: { chatId: string }) {
  const { org, user } = useSession();
  const { chats } = useInbox();
  const qc = useQueryClient();
  const data = useThreadMessages(org.org_id, chatId);
  const { chat, messages, status, cursor, loadOlder, loadingOlder, olderError, updateMessages, applyMessage, applyChat } = data;
  const current = useCallback((id: string) => findInThread(qc.getQueryData(chatKeys.messages(org.org_id, chatId)), id), [qc, org.org_id, chatId]);

  // Reply Privately opens this chat with the group message quoted (router state set by the group's thread)
  const location = useLocation();
  const [privateReply] = useState(() => {
    const st = (location.state as { replyPrivately?: { to: string; message: Message; group: string } } | null)?.replyPrivately;
    return st && st.to === chatId ? st : null;
  });
  const [replyTo, setReplyTo] = useState<Message | null>(privateReply?.message ?? null);
  const [ticketDialog, setTicketDialog] = useState<{ kind: TicketAction; message: Message } | null>(null);
  const { panelOpen, setPanel, panelToggle } = useDetailsPanel();
  const typing = useTyping(chatId);
  const composerRef = useRef<ComposerHandle>(null);
  const win = useChatWindow(chat);
  // issue 41: the server names a chat by its canonical id for this viewer (sealed for a member who
  // may not see numbers): a link with another form of the id moves to it, so the list and the
  // thread keep one entry for the chat
  const navigate = useNavigate();
  useEffect(() => {
    if (chat?.chat_id && chat.chat_id !== chatId) navigate(`/chats/${encodeURIComponent(chat.chat_id)}`, { replace: true, state: location.state });
  }, [chat?.chat_id, chatId, navigate, location.state]);
  /** issue 16: the Schedule dialog, with the composer's text */
  const [scheduling, setScheduling] = useState<string | null>(null);
  const scroll = useThreadScroll({ messages, status, cursor, loadingOlder, olderError, loadOlder });

  const { tickets: chatTickets, status: ticketsStatus, error: ticketsError, reload: loadTickets, replaceTicket } = useChatTickets(org.org_id, chatId);
  const onTicketAction = useCallback((kind: TicketAction, m: Message) => setTicketDialog({ kind, message: m }), []);
  const openTickets = (chatTickets ?? []).filter((t) => t.status !== 'closed').length;

  useReadReceipts(org.org_id, chatId, chat, applyChat);

  // focus the composer on open (not on phones, where it would pop the keyboard over the thread)
  useEffect(() => {
    if (!window.matchMedia('(max-width: 768px)').matches) composerRef.current?.focus();
  }, [chatId]);

  const restoreReply = useCallback((m: Message) => setReplyTo((r) => r ?? m), []);
  const sendMessage = useSendMessage({ orgId: org.org_id, chatId, chat, update: updateMessages, groupName: privateReply?.group ?? null, restoreReply });
  const send = useCallback(
    (text: string) => {
      scroll.stickToBottom();
      const quoted = replyTo;
      setReplyTo(null);
      return sendMessage(text, quoted);
    },
    [scroll, replyTo, sendMessage],
  );
  const onReply = useCallback((m: Message) => {
    setReplyTo(m);
    composerRef.current?.focus();
  }, []);

  const actor = useMemo<ActorInfo>(() => ({ email: user.email, role: org.role, phones: org.phones, maskPhoneNumbers: org.mask_phone_numbers ?? false }), [user.email, org.role, org.phones, org.mask_phone_numbers]);
  const actions = useMessageActions({ orgId: org.org_id, chatId, chat, email: user.email, applyMessage, applyChat, update: updateMessages, current });
  const { edits, pinFor, forwardFor } = actions;
  const clock = usePinClock();
  const pins = useMemo(() => livePins(chat, clock), [chat, clock]);

  /** The message a ticket dialog was opened on, now linked to ticket `ticketId` (or as the API returned it). */
  const linkMessage = (uid: string, ticketId: string, fromApi?: Message) =>
    updateMessages((d) => {
      if (fromApi) return upsertThread(d, [fromApi]);
      const cur = findInThread(d, uid);
      return cur ? upsertThread(d, [{ ...cur, message_ticket_id: ticketId }]) : d;
    });

  const name = threadName(chat, chatId);
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
        <ThreadHeader ref={panelToggle} chatId={chatId} chat={chat} panelOpen={panelOpen} onTogglePanel={() => setPanel(!panelOpen)} openTickets={openTickets} />
        <PinnedBar pins={pins} onJump={scroll.jumpToMessage} />
        <div className="thread-body">
          <MessageList
            scrollRef={scroll.scrollRef}
            onScroll={scroll.onScroll}
            status={status}
            error={data.error}
            onRetry={data.retry}
            messages={messages}
            chat={chat}
            cursor={cursor}
            loadingOlder={loadingOlder}
            olderError={olderError}
            onLoadOlder={loadOlder}
            onReply={onReply}
            onJump={scroll.jumpToMessage}
            chatTickets={chatTickets}
            onTicketAction={onTicketAction}
            actor={actor}
            onAction={actions.onAction}
            editingId={edits.editingId}
            onSaveEdit={edits.saveEdit}
            onCancelEdit={edits.cancelEdit}
          />
          {scroll.showJump && status === 'ready' && (
            <button type="button" className="jump-btn" onClick={scroll.jumpToBottom} aria-label="Scroll to the latest message">
              ↓
            </button>
          )}
          <div className="typing-indicator" role="status" data-testid="typing-indicator">
            {/* spec §4: 'AI is thinking...' while the agent prepares a reply (issue 18) */}
            {typing.text || (chat?.ai_metadata?.activation_state === 'thinking' ? 'AI is thinking...' : '')}
          </div>
        </div>

        {status !== 'missing' && <PendingFollowUps orgId={org.org_id} chatId={chatId} version={messages.length} />}
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
            onSchedule={chat && chat.has_access !== false ? (text) => setScheduling(text) : undefined}
            templateSlot={
              win.closed && chat ? (
                <Suspense fallback={null}>
                  <TemplateComposer chatId={chatId} phoneId={chat.phone_id} />
                </Suspense>
              ) : undefined
            }
            onSendNote={(text, mentions) => {
              typing.onSent();
              return actions.notes.sendNote(text, mentions);
            }}
          />
        )}
      </section>
      {panelOpen && (
        <ChatTicketsPanel tickets={chatTickets} status={ticketsStatus} error={ticketsError} onRetry={loadTickets} onClose={() => setPanel(false)} onChange={replaceTicket}>
          {chat && chat.has_access !== false && (
            <Suspense fallback={null}>
              <ChatContact chat={chat} />
              <ChatProperties chat={chat} />
            </Suspense>
          )}
        </ChatTicketsPanel>
      )}
      {scheduling !== null && chat && (
        <Suspense fallback={null}>
          <ScheduleDialog chatId={chatId} phoneId={chat.phone_id} cloud={win.applies} initialText={scheduling} onClose={() => setScheduling(null)} />
        </Suspense>
      )}
      {pinFor && <PinDialog message={pinFor} onClose={() => actions.setPinFor(null)} onPin={(d) => actions.setPin(pinFor, true, d)} />}
      {edits.deleteFor && <DeleteMessageDialog message={edits.deleteFor} onClose={edits.closeDelete} onDelete={() => void edits.deleteMessage(edits.deleteFor!)} />}
      {forwardFor && <ForwardDialog message={forwardFor} chats={chats} onClose={() => actions.setForwardFor(null)} onForward={(ids) => actions.forward(forwardFor, ids)} />}
      {ticketDialog?.kind === 'create' && (
        <CreateTicketDialog
          message={ticketDialog.message}
          chat={chat}
          chatTickets={chatTickets ?? []}
          onClose={() => setTicketDialog(null)}
          onCreated={(t) => {
            replaceTicket(t);
            linkMessage(ticketDialog.message.unique_id, t.ticket_id);
            setTicketDialog(null);
          }}
        />
      )}
      {ticketDialog?.kind === 'faq' && (
        <Suspense fallback={null}>
          <AddToFaqDialog message={ticketDialog.message} messages={messages} onClose={() => setTicketDialog(null)} />
        </Suspense>
      )}
      {ticketDialog?.kind === 'attach' && (
        <AttachTicketDialog
          message={ticketDialog.message}
          chatTickets={chatTickets ?? []}
          onClose={() => setTicketDialog(null)}
          onAttached={(r, ticketId) => {
            if (r.ticket) replaceTicket(r.ticket);
            linkMessage(ticketDialog.message.unique_id, ticketId, r.message ?? undefined);
            setTicketDialog(null);
          }}
        />
      )}
    </div>
  );
}
