/**
 * One message in the thread: bubble (right for from_me, left otherwise) with author (groups),
 * forwarded label, quoted reply, content, time and ticks; reactions as chips under it; the failure
 * reason under failed outgoing messages; a Reply action on hover/focus when the message has a wamid;
 * the ticket chip when the message belongs to a ticket; the "⋯" menu (also right click, Shift+F10)
 * with Reply, Create ticket and Attach to ticket when the spec §5 rules (ticket.rules.ts) allow them,
 * and Create task (opens the task panel's New Task linked to this message).
 */
import { memo, useCallback, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import { canAttachToTicket, canCreateTicket } from '#shared/ticket/ticket.rules.ts';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { ACK } from '#shared/message/message.schemas.ts';
import { authorName, bubbleTime, exactTime, formatPhone, isGroupChat, previewText } from '../lib/format.ts';
import { Ack } from './Ack.tsx';
import { MessageContent } from './MessageContent.tsx';
import { Icon } from '../layout/Icon.tsx';
import { isLocal } from '../lib/messages.ts';
import { TicketChip } from '../tickets/TicketChip.tsx';
import { MessageMenu, type MenuItem } from './MessageMenu.tsx';
import { useTaskActions } from '../app/tasks.tsx';
import { MAX_TITLE } from '#shared/task/task.schemas.ts';

export type TicketAction = 'create' | 'attach';

function scrollToMessage(messageId: string) {
  const el = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!el) return;
  el.scrollIntoView({ block: 'center', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  el.classList.remove('flash');
  void el.offsetWidth;
  el.classList.add('flash');
}

function Quoted({ q, chat }: { q: NonNullable<Message['quoted_message']>; chat: Chat | null }) {
  const who = q.from_me ? 'You' : q.author ? authorName(chat, { author: q.author, sender_phone: q.author }) : null;
  return (
    <button type="button" className="quoted" onClick={() => scrollToMessage(q.message_id)} title="Show the original message">
      {who && <span className="quoted-author">{who}</span>}
      <span className={`quoted-body ${q.body ? '' : 'muted'}`}>{q.body || 'Original message not available'}</span>
    </button>
  );
}

export const MessageBubble = memo(function MessageBubble({
  m,
  chat,
  onReply,
  chatTickets = null,
  onTicketAction,
}: {
  m: Message;
  chat: Chat | null;
  onReply: (m: Message) => void;
  /** the chat's tickets (null while loading: attach is not offered yet) */
  chatTickets?: Ticket[] | null;
  onTicketAction?: (kind: TicketAction, m: Message) => void;
}) {
  const navigate = useNavigate();
  const { openNew } = useTaskActions();
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const menuBtn = useRef<HTMLButtonElement>(null);
  const out = m.from_me;
  const group = chat ? isGroupChat(chat) : false;
  const reactions = Object.entries(m.reactions ?? {}).filter(([, r]) => r.reaction);
  const failed = out && m.ack === ACK.FAILED;
  const canReply = !!m.message_id && !m.is_deleted;
  const system = m.message_type === 'system';
  const local = isLocal(m);
  const ticketId = m.message_ticket_id ?? null;
  const ticket = ticketId ? (chatTickets?.find((t) => t.ticket_id === ticketId) ?? null) : null;

  const items: MenuItem[] = [];
  if (canReply) items.push({ id: 'reply', label: 'Reply', onSelect: () => onReply(m) });
  if (!local && onTicketAction) {
    if (canCreateTicket(m).allowed) items.push({ id: 'create', label: 'Create ticket', testId: 'message-menu-create-ticket', onSelect: () => onTicketAction('create', m) });
    if (chatTickets && canAttachToTicket(m, chatTickets).allowed)
      items.push({ id: 'attach', label: 'Attach to ticket', testId: 'message-menu-attach-ticket', onSelect: () => onTicketAction('attach', m) });
  }
  if (!local && !m.is_deleted)
    items.push({
      id: 'create-task',
      label: 'Create task',
      testId: 'message-menu-create-task',
      onSelect: () =>
        openNew({
          title: (previewText(m) || '').split('\n')[0].trim().slice(0, MAX_TITLE),
          associated: {
            id: m.unique_id,
            type: 'message',
            object: {
              chat_id: m.chat_id,
              org_id: m.org_id,
              org_phone: m.org_phone ?? null,
              message_id: m.message_id ?? null,
              sender_phone: m.sender_phone ?? null,
              is_private_note: m.is_private_note ?? false,
            },
          },
        }),
    });
  if (ticketId) items.push({ id: 'open', label: 'Open ticket', testId: 'message-menu-open-ticket', onSelect: () => navigate(`/tickets?ticket=${encodeURIComponent(ticketId)}`) });
  const hasMenu = !local && items.length > 0;

  const openFromButton = () => {
    const r = menuBtn.current?.getBoundingClientRect();
    setMenuAt(r ? { x: out ? r.right - 180 : r.left, y: r.bottom + 4 } : { x: 100, y: 100 });
  };
  const onContextMenu = (e: MouseEvent) => {
    if (!hasMenu) return;
    e.preventDefault();
    setMenuAt({ x: e.clientX, y: e.clientY });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!hasMenu) return;
    if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      e.preventDefault();
      openFromButton();
    }
  };
  const closeMenu = useCallback((restore: boolean) => {
    setMenuAt(null);
    if (restore) menuBtn.current?.focus();
  }, []);

  if (system) {
    return (
      <div className="msg msg-system" data-testid="message" data-unique-id={m.unique_id} data-ack={m.ack} data-from-me={String(out)}>
        <span>{m.body ?? 'System message'}</span>
      </div>
    );
  }

  return (
    <div
      className={`msg ${out ? 'msg-out' : 'msg-in'} ${m.is_private_note ? 'msg-note' : ''} ${failed ? 'msg-failed' : ''}`}
      data-testid="message"
      data-unique-id={m.unique_id}
      data-message-id={m.message_id ?? undefined}
      data-ack={m.ack}
      data-from-me={String(out)}
      data-ticket-id={ticketId ?? undefined}
    >
      <div className="bubble" onContextMenu={onContextMenu} onKeyDown={onKeyDown}>
        {m.is_private_note && <div className="note-label">Private note</div>}
        {group && !out && <div className="msg-author">{authorName(chat, m)}</div>}
        {m.forwarded && <div className="forwarded">↪ {m.forwarded === 'frequently_forwarded' ? 'Forwarded many times' : 'Forwarded'}</div>}
        {m.quoted_message && <Quoted q={m.quoted_message} chat={chat} />}
        <MessageContent m={m} />
        <div className="msg-meta">
          <time dateTime={new Date(m.timestamp).toISOString()} title={exactTime(m.timestamp)}>
            {bubbleTime(m.timestamp)}
          </time>
          {out && <Ack ack={m.ack} />}
        </div>
        {(canReply || hasMenu) && (
          <div className="msg-tools">
            {canReply && (
              <button type="button" className="msg-action" onClick={() => onReply(m)} aria-label="Reply to this message" title="Reply">
                <Icon name="reply" size={16} />
                <span>Reply</span>
              </button>
            )}
            {hasMenu && (
              <button
                ref={menuBtn}
                type="button"
                className={`msg-action msg-more ${menuAt ? 'open' : ''}`}
                data-testid="message-menu-button"
                aria-label="Message actions"
                title="More actions"
                aria-haspopup="menu"
                aria-expanded={menuAt !== null}
                onClick={() => (menuAt ? closeMenu(false) : openFromButton())}
              >
                <Icon name="more" size={16} />
              </button>
            )}
          </div>
        )}
      </div>
      {ticketId && <TicketChip ticketId={ticketId} ticket={ticket} />}
      {menuAt && <MessageMenu at={menuAt} items={items} onClose={closeMenu} label="Message actions" />}
      {reactions.length > 0 && (
        <ul className="reactions" aria-label="Reactions">
          {reactions.map(([sender, r]) => (
            <li key={sender} className="reaction" title={`${r.reaction} from ${formatPhone(sender)}`}>
              {r.reaction}
            </li>
          ))}
        </ul>
      )}
      {failed && (
        <div className="delivery-error" data-testid="delivery-error" role="note">
          Failed: {m.delivery_error?.reason ?? 'the message could not be delivered'}
        </div>
      )}
    </div>
  );
});
