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
import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { ACK } from '#shared/message/message.schemas.ts';
import { authorName, bubbleTime, exactTime, isGroupChat, previewText } from '../../../lib/format.ts';
import { actionContext, allowedActions, groupReactions, ourReaction, type ActorInfo } from '../api/messageActions.ts';
import { ReactionPicker } from './MessageActionsUI.tsx';
import { ReactionsPopover } from './ReactionsPopover.tsx';
import { Ack } from './Ack.tsx';
import { MessageContent } from './MessageContent.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { isLocal } from '../api/messages.ts';
import { TicketChip } from '../../tickets/index.ts';
import { MessageMenu, type MenuItem } from '../../../components/ui/Menu.tsx';
import { quoteAuthor, quoteLine } from './Composer.tsx';
import { useTaskActions } from '../../tasks/index.ts';
import { MAX_TITLE } from '#shared/task/task.schemas.ts';
import { NoteLabel, NoteText } from './NoteText.tsx';
import { DeletedBody, EditedLabel, InlineEditor } from './MessageEdit.tsx';

export type TicketAction = 'create' | 'attach';
/** What the thread does for a bubble (`react` carries the emoji, '' removes ours). */
export type BubbleAction = 'react' | 'forward' | 'copy_id' | 'pin' | 'unpin' | 'flag' | 'unflag' | 'remove_flag' | 'refresh' | 'download' | 'delete_note' | 'edit' | 'delete' | 'reply_privately';

const LONG_PRESS_MS = 500;

function scrollToMessage(messageId: string) {
  const el = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
  if (!el) return;
  el.scrollIntoView({ block: 'center', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  el.classList.remove('flash');
  void el.offsetWidth;
  el.classList.add('flash');
}

/**
 * The quote block of a reply: who wrote the quoted message ('You' for ours) and its text (or, when
 * the stored quote has none, the type of the original if it is loaded). Clicking it shows the
 * original: through the thread (`onJump`, which loads older pages like the pinned bar) when its
 * unique_id is known, else by scrolling to it when it is on screen.
 */
function Quoted({ q, chat, chatId, original, onJump }: { q: NonNullable<Message['quoted_message']>; chat: Chat | null; chatId: string; original?: Message; onJump?: (uniqueId: string) => void }) {
  const navigate = useNavigate();
  const who = quoteAuthor(chat, { from_me: !!q.from_me, author: q.author ?? original?.author ?? null, sender_phone: original?.sender_phone ?? q.author ?? null });
  const body = q.body || (original ? quoteLine(original) : '');
  const uniqueId = q.unique_id ?? original?.unique_id ?? null;
  return (
    <button
      type="button"
      className="quoted"
      data-testid="message-quote"
      data-quoted-id={q.message_id}
      onClick={(e) => {
        e.stopPropagation();
        if (q.chat_id && q.chat_id !== chatId) navigate(`/chats/${encodeURIComponent(q.chat_id)}${uniqueId ? `?message=${encodeURIComponent(uniqueId)}` : ''}`);
        else if (uniqueId && onJump) onJump(uniqueId);
        else scrollToMessage(q.message_id);
      }}
      title="Show the original message"
      aria-label={`Reply to ${who}: ${body || 'original message not available'}. Show the original message`}
    >
      <span className="quoted-author">
        {who}
        {/* reply privately: the quote came from a group chat */}
        {q.chat_id && q.chat_id !== chatId && (
          <span className="quoted-from" data-testid="message-quote-from">
            {' '}
            · from the group {q.chat_name || 'chat'}
          </span>
        )}
      </span>
      <span className={`quoted-body ${body ? '' : 'muted'}`}>{body || 'Original message not available'}</span>
    </button>
  );
}

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
  const navigate = useNavigate();
  const { openNew } = useTaskActions();
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const out = m.from_me;
  const group = chat ? isGroupChat(chat) : false;
  const [pickerAt, setPickerAt] = useState<{ x: number; y: number } | null>(null);
  /** 'who reacted' popover, opened from a reaction chip */
  const [whoAt, setWhoAt] = useState<{ x: number; y: number; emoji: string } | null>(null);
  const closeWho = useCallback(() => setWhoAt(null), []);
  const menuBtn = useRef<HTMLButtonElement>(null);
  const bubbleRef = useRef<HTMLDivElement>(null);
  const longPress = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  const ours = chat?.org_phone ?? m.org_phone;
  const reactions = groupReactions(m, chat, ours);
  const mine = ourReaction(m, ours);
  const failed = out && m.ack === ACK.FAILED;
  const system = m.message_type === 'system';
  const local = isLocal(m);
  const ticketId = m.message_ticket_id ?? null;
  const ticket = ticketId ? (chatTickets?.find((t) => t.ticket_id === ticketId) ?? null) : null;
  const now = Date.now();
  const flagged = m.flag_status === true;
  const pinned = m.pinned_until != null && m.pinned_until > now;

  // the rules decide (spec §5); chatTickets null while loading: Attach is not offered yet
  const allowed = allowedActions(
    actor
      ? actionContext(m, chat, actor, chatTickets, now)
      : actionContext(m, chat, { email: '', role: 'member', phones: [] }, chatTickets, now),
  );
  if (!actor) for (const a of ['react', 'forward', 'copy_id', 'pin', 'unpin', 'flag', 'unflag', 'remove_flag', 'refresh', 'download', 'edit', 'delete'] as const) allowed.delete(a);
  if (!onAction) for (const a of ['react', 'forward', 'copy_id', 'pin', 'unpin', 'flag', 'unflag', 'remove_flag', 'refresh', 'download', 'edit', 'delete'] as const) allowed.delete(a);
  // edit text and captions only (spec §5 edit rules; the API refuses the rest too); notes have their own delete
  if (!onSaveEdit || !(m.message_type === 'text' || ((m.message_type === 'image' || m.message_type === 'video' || m.message_type === 'document') && m.body))) allowed.delete('edit');
  if (m.is_private_note) allowed.delete('delete');
  // forwarding re-sends text, or a media message's stored file (not before the file is stored, never stickers)
  if (m.message_type === 'sticker' || (m.message_type !== 'text' && !(m.media?.path && (m.media.status ?? 'stored') === 'stored'))) allowed.delete('forward');
  const canReply = allowed.has('reply');
  const canReact = allowed.has('react') && !local;

  const openPicker = () => {
    const r = bubbleRef.current?.getBoundingClientRect();
    setPickerAt(r ? { x: out ? r.right - 260 : r.left, y: r.top - 52 < 8 ? r.bottom + 6 : r.top - 52 } : { x: 100, y: 100 });
  };
  const act = (a: BubbleAction) => () => onAction?.(a, m);

  const items: MenuItem[] = [];
  if (canReply) items.push({ id: 'reply', label: 'Reply', testId: 'menu-reply', onSelect: () => onReply(m) });
  if (!local) {
    if (canReact) items.push({ id: 'react', label: 'React', testId: 'menu-react', onSelect: openPicker });
    if (allowed.has('edit')) items.push({ id: 'edit', label: 'Edit', testId: 'menu-edit', onSelect: act('edit') });
    if (allowed.has('delete')) items.push({ id: 'delete', label: 'Delete', testId: 'menu-delete', onSelect: act('delete') });
    if (allowed.has('forward')) items.push({ id: 'forward', label: 'Forward', testId: 'menu-forward', onSelect: act('forward') });
    // spec §5: group members' messages only (the rules); opens the 1:1 chat with the member
    if (actor && onAction && allowed.has('reply_privately')) items.push({ id: 'reply_privately', label: 'Reply Privately', testId: 'menu-reply-privately', onSelect: act('reply_privately') });
    if (allowed.has('copy_id')) items.push({ id: 'copy_id', label: 'Copy Id', testId: 'menu-copy-id', onSelect: act('copy_id') });
    if (allowed.has('pin')) items.push({ id: 'pin', label: 'Pin', testId: 'menu-pin', onSelect: act('pin') });
    if (allowed.has('unpin')) items.push({ id: 'unpin', label: 'Unpin', testId: 'menu-unpin', onSelect: act('unpin') });
    if (allowed.has('flag')) items.push({ id: 'flag', label: 'Flag (needs reply)', testId: 'menu-flag', onSelect: act('flag') });
    if (allowed.has('unflag')) items.push({ id: 'unflag', label: 'Unflag (mark answered)', testId: 'menu-unflag', onSelect: act('unflag') });
    if (allowed.has('remove_flag')) items.push({ id: 'remove_flag', label: 'Remove flag', testId: 'menu-remove-flag', onSelect: act('remove_flag') });
    if (allowed.has('refresh')) items.push({ id: 'refresh', label: 'Refresh', testId: 'menu-refresh', onSelect: act('refresh') });
    if (allowed.has('download')) items.push({ id: 'download', label: 'Download', testId: 'menu-download', onSelect: act('download') });
    // private notes: their author only (rule delete_note)
    if (actor && onAction && allowed.has('delete_note')) items.push({ id: 'delete_note', label: 'Delete note', testId: 'menu-delete-note', onSelect: act('delete_note') });
  }
  if (!local && onTicketAction) {
    if (allowed.has('create_ticket')) items.push({ id: 'create', label: 'Create ticket', testId: 'message-menu-create-ticket', onSelect: () => onTicketAction('create', m) });
    if (chatTickets && allowed.has('attach_to_ticket'))
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
  const cancelLongPress = () => {
    if (longPress.current) clearTimeout(longPress.current.timer);
    longPress.current = null;
  };
  useEffect(() => cancelLongPress, []);
  const onPointerDown = (e: PointerEvent) => {
    if (!hasMenu || e.pointerType === 'mouse') return;
    const { clientX: x, clientY: y } = e;
    cancelLongPress();
    longPress.current = {
      x,
      y,
      timer: setTimeout(() => {
        longPress.current = null;
        navigator.vibrate?.(10);
        setMenuAt({ x, y });
      }, LONG_PRESS_MS),
    };
  };
  const onPointerMove = (e: PointerEvent) => {
    const lp = longPress.current;
    if (lp && Math.hypot(e.clientX - lp.x, e.clientY - lp.y) > 10) cancelLongPress();
  };

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
      <div
        ref={bubbleRef}
        className="bubble"
        tabIndex={0}
        aria-keyshortcuts={[canReply ? 'R' : '', hasMenu ? 'Shift+F10' : ''].filter(Boolean).join(' ') || undefined}
        onContextMenu={onContextMenu}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={cancelLongPress}
        onPointerCancel={cancelLongPress}
        onPointerLeave={cancelLongPress}
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
      {reactions.length > 0 && (
        <ul className="reactions" aria-label="Reactions" data-testid="message-reactions">
          {reactions.map((g) => {
            const who = g.who.join(', ');
            return (
              <li
                key={g.emoji}
                className={`reaction ${g.mine ? 'mine' : ''} ${g.pending ? 'pending' : ''}`}
                data-testid="reaction"
                data-emoji={g.emoji}
                data-mine={String(g.mine)}
                title={`${g.emoji} ${who}${g.pending ? ' (sending…)' : ''}`}
              >
                <button
                  type="button"
                  className="reaction-chip"
                  data-testid="reaction-chip"
                  aria-label={`${g.emoji} from ${who}. Show who reacted`}
                  aria-haspopup="dialog"
                  aria-expanded={whoAt?.emoji === g.emoji}
                  onClick={(e) => {
                    const r = e.currentTarget.getBoundingClientRect();
                    setWhoAt(whoAt?.emoji === g.emoji ? null : { x: r.left, y: r.bottom + 6, emoji: g.emoji });
                  }}
                >
                  <span className="reaction-emoji">{g.emoji}</span>
                  {g.count > 1 && <span className="reaction-count">{g.count}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {whoAt && !local && <ReactionsPopover at={whoAt} chatId={m.chat_id} uniqueId={m.unique_id} emoji={whoAt.emoji} onClose={closeWho} />}
      {out && m.edit_status === 'failed' && m.edit_error && !m.is_deleted && (
        <div className="delivery-error" data-testid="edit-error" role="note">
          Edit not saved: {m.edit_error.reason}
        </div>
      )}
      {failed && (
        <div className="delivery-error" data-testid="delivery-error" role="note">
          Failed: {m.delivery_error?.reason ?? 'the message could not be delivered'}
        </div>
      )}
    </div>
  );
});
