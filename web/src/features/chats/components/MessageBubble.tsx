/**
 * One message in the thread: bubble (right for from_me, left otherwise) with author (groups),
 * forwarded label, quoted reply, content, time and ticks; reactions as chips under it; the failure
 * reason under failed outgoing messages; a Reply action on hover/focus when the message has a wamid
 * (also in the menu, and R while the bubble has focus); the quote block of a reply jumps to the original;
 * the ticket chip when the message belongs to a ticket; the "⋯" menu (also right click, Shift+F10)
 * (also right click, Shift+F10 / the context-menu key, and a long press on touch screens) with the
 * actions shared/message/message-actions.rules.ts allows (`messageMenu`): Reply, React, Edit (inline),
 * Delete for everyone (MessageEdit.tsx; 'edited' and deleted messages are shown there too), Forward,
 * Copy Id, Pin/Unpin, Flag/Unflag/Remove flag, Refresh, Download, Delete note (its author), Create ticket, Attach to ticket;
 * plus Create task and Open ticket. The thread carries the actions out (`onAction`); the reaction
 * picker opens here. Reactions show as emoji + count chips (tooltip: who), a flag marker while the
 * message waits for a reply, a pin marker while it is pinned.
 */
import { memo, useCallback, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { ACK } from '#shared/message/message.schemas.ts';
import { authorName, bubbleTime, exactTime, isGroupChat } from '../../../lib/format.ts';
import { ourReaction, type ActorInfo } from '../api/messageActions.ts';
import { ReactionPicker } from './MessageActionsUI.tsx';
import { Ack } from './Ack.tsx';
import { MessageContent } from './MessageContent.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { TicketChip } from '../../tickets/index.ts';
import { MessageMenu } from '../../../components/ui/Menu.tsx';
import { NoteLabel, NoteText } from './NoteText.tsx';
import { DeletedBody, EditedLabel, InlineEditor } from './MessageEdit.tsx';
import { Quoted } from './MessageQuote.tsx';
import { MessageReactions } from './MessageReactions.tsx';
import { useBubbleMenu, type BubbleAction, type TicketAction } from '../hooks/useBubbleMenu.ts';
import { useLongPress } from '../hooks/useLongPress.ts';

export type { BubbleAction, TicketAction } from '../hooks/useBubbleMenu.ts';

export const MessageBubble = memo(function MessageBubble({
  m,
  chat,
  onReply,
  chatTickets = null,
  onTicketAction,
  actor,
  onAction,
  onJump,
  quotedOriginal,
  editing = false,
  onSaveEdit,
  onCancelEdit,
}: {
  m: Message;
  /** the inline editor replaces the text (Edit from the menu; MessageEdit.tsx) */
  editing?: boolean;
  /** @returns whether the edit was accepted (the editor then closes) */
  onSaveEdit?: (m: Message, text: string) => Promise<boolean>;
  onCancelEdit?: () => void;
  chat: Chat | null;
  onReply: (m: Message) => void;
  /** show a message of the thread by unique_id (loads older pages when needed), for the quote block */
  onJump?: (uniqueId: string) => void;
  /** the quoted message when it is loaded in the thread (names its type when the quote has no text) */
  quotedOriginal?: Message;
  /** the chat's tickets (null while loading: attach is not offered yet) */
  chatTickets?: Ticket[] | null;
  onTicketAction?: (kind: TicketAction, m: Message) => void;
  /** the signed-in member (rule context); without it only the ticket and task actions are offered */
  actor?: ActorInfo;
  onAction?: (action: BubbleAction, m: Message, emoji?: string) => void;
}) {
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const out = m.from_me;
  const group = chat ? isGroupChat(chat) : false;
  const [pickerAt, setPickerAt] = useState<{ x: number; y: number } | null>(null);
  const menuBtn = useRef<HTMLButtonElement>(null);
  const bubbleRef = useRef<HTMLDivElement>(null);
  const ours = chat?.org_phone ?? m.org_phone;
  const mine = ourReaction(m, ours);
  const failed = out && m.ack === ACK.FAILED;
  // a crash during the send: WhatsApp may or may not have it (issue 23); never resent without Retry
  const uncertain = out && !failed && m.send_uncertain_at != null && !m.message_id;
  const system = m.message_type === 'system';
  const ticketId = m.message_ticket_id ?? null;
  const ticket = ticketId ? (chatTickets?.find((t) => t.ticket_id === ticketId) ?? null) : null;
  const now = Date.now();
  const flagged = m.flag_status === true;
  const pinned = m.pinned_until != null && m.pinned_until > now;

  const openPicker = () => {
    const r = bubbleRef.current?.getBoundingClientRect();
    setPickerAt(r ? { x: out ? r.right - 260 : r.left, y: r.top - 52 < 8 ? r.bottom + 6 : r.top - 52 } : { x: 100, y: 100 });
  };
  const { items, canReply, canReact, hasMenu } = useBubbleMenu({ m, chat, actor, chatTickets: chatTickets ?? null, onReply, onAction, onSaveEdit, onTicketAction, openPicker });

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
    // R on the focused message replies to it (not while a control inside it takes keys)
    if ((e.key === 'r' || e.key === 'R') && !e.ctrlKey && !e.metaKey && !e.altKey && canReply && e.target === e.currentTarget) {
      e.preventDefault();
      onReply(m);
      return;
    }
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
  const closePicker = useCallback((restore: boolean) => {
    setPickerAt(null);
    if (restore) menuBtn.current?.focus();
  }, []);

  // long press (touch screens) opens the menu where the finger is
  const longPress = useLongPress(hasMenu, setMenuAt);

  if (system) {
    return (
      <div className="msg msg-system" data-testid="message" data-unique-id={m.unique_id} data-ack={m.ack} data-from-me={String(out)}>
        <span>{m.body ?? 'System message'}</span>
      </div>
    );
  }

  return (
    <div
      className={`msg ${out ? 'msg-out' : 'msg-in'} ${m.is_private_note ? 'msg-note' : ''} ${failed || uncertain ? 'msg-failed' : ''}`}
      data-testid="message"
      data-unique-id={m.unique_id}
      data-message-id={m.message_id ?? undefined}
      data-ack={m.ack}
      data-from-me={String(out)}
      data-ticket-id={ticketId ?? undefined}
    >
      <div
        ref={bubbleRef}
        className="bubble"
        tabIndex={0}
        aria-keyshortcuts={[canReply ? 'R' : '', hasMenu ? 'Shift+F10' : ''].filter(Boolean).join(' ') || undefined}
        onContextMenu={onContextMenu}
        onKeyDown={onKeyDown}
        {...longPress}
      >
        {m.is_private_note && <NoteLabel />}
        {group && !out && <div className="msg-author">{authorName(chat, m)}</div>}
        {m.forwarded && <div className="forwarded">↪ {m.forwarded === 'frequently_forwarded' ? 'Forwarded many times' : 'Forwarded'}</div>}
        {m.quoted_message && <Quoted q={m.quoted_message} chat={chat} chatId={m.chat_id} original={quotedOriginal} onJump={onJump} />}
        {m.is_private_note ? (
          <NoteText m={m} me={actor?.email} />
        ) : m.is_deleted ? (
          <DeletedBody m={m} />
        ) : editing && onSaveEdit && onCancelEdit ? (
          <InlineEditor m={m} onSave={(text) => onSaveEdit(m, text)} onCancel={onCancelEdit} />
        ) : (
          <MessageContent m={m} />
        )}
        <div className="msg-meta">
          {flagged && (
            <span className="flag-marker" data-testid="flag-marker" title={`Flagged${m.flag_metadata?.flagged_by ? ` by ${m.flag_metadata.flagged_by}` : ''}: waiting for a reply`} aria-label="Flagged: needs a reply">
              <Icon name="flag" size={13} />
            </span>
          )}
          {pinned && (
            <span className="pin-marker" data-testid="pin-marker" title={`Pinned until ${exactTime(m.pinned_until!)}`} aria-label="Pinned">
              <Icon name="pushpin" size={13} />
            </span>
          )}
          <EditedLabel m={m} />
          <time dateTime={new Date(m.timestamp).toISOString()} title={exactTime(m.timestamp)}>
            {bubbleTime(m.timestamp)}
          </time>
          {/* a note never goes to WhatsApp: no ticks */}
          {out && !m.is_private_note && <Ack ack={m.ack} />}
        </div>
        {(canReply || hasMenu || canReact) && (
          <div className="msg-tools">
            {canReact && (
              <button type="button" className={`msg-action msg-react ${pickerAt ? 'open' : ''}`} onClick={() => (pickerAt ? closePicker(false) : openPicker())} aria-label="React to this message" title="React" data-testid="message-react-button" aria-haspopup="true" aria-expanded={pickerAt !== null}>
                <Icon name="smile" size={16} />
              </button>
            )}
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
      {pickerAt && <ReactionPicker at={pickerAt} current={mine} onClose={closePicker} onPick={(emoji) => onAction?.('react', m, emoji)} />}
      <MessageReactions m={m} chat={chat} ours={ours} />
      {out && m.edit_status === 'failed' && m.edit_error && !m.is_deleted && (
        <div className="delivery-error" data-testid="edit-error" role="note">
          Edit not saved: {m.edit_error.reason}
        </div>
      )}
      {(failed || uncertain) && (
        <div className="delivery-error" data-testid="delivery-error" data-uncertain={uncertain || undefined} role="note">
          {uncertain ? 'May not have been sent' : 'Failed'}: {m.delivery_error?.reason ?? 'the message could not be delivered'}
          {onAction && !m.is_deleted && (
            <button type="button" className="delivery-retry" data-testid="retry-send" onClick={() => onAction('retry', m)}>
              Retry
            </button>
          )}
        </div>
      )}
    </div>
  );
});
