/**
 * One row of the chat list (ChatList.tsx): avatar, name (the masked number for a nameless chat
 * when masking applies), last message preview with its sender and ack, relative time, unread
 * badge, pin / mute icons, the assignee's initials, labels as coloured chips, 'Snoozed until …'
 * and a 'Closed' chip; a chat the viewer may not open (spec §6) is a dimmed stub
 * ('You do not have access to this chat', not clickable). Row heights are fixed for the
 * virtualizer: ROW_HEIGHT, or ROW_HEIGHT_META when the row has a meta line (`hasMeta`).
 */
import { memo } from 'react';
import type { Chat, ChatLabel } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import { isClosed, isSnoozed } from '#shared/chat/chat-state.rules.ts';
import { NO_CHAT_ACCESS_MESSAGE } from '#shared/chat/chat-access.rules.ts';
import { chatDisplayName, exactTime, formatPhone, listTime, previewText, isGroupChat, authorName } from '../../../lib/format.ts';
import type { OrgMember } from '../../../lib/api.ts';
import { Avatar } from './Avatar.tsx';
import { Ack } from './Ack.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { needsReplyCount } from '../api/messageActions.ts';
import { ChatLabelChip, Glyph, MemberAvatar, memberName } from './ChatBadges.tsx';
import { snoozeUntilText } from './SnoozeMenu.tsx';
import { SlaBadge } from './SlaBadge.tsx';

export const ROW_HEIGHT = 72;
/** a row with a line of assignee / state / labels */
export const ROW_HEIGHT_META = 94;
/** label chips shown on a row (the rest as '+n') */
const ROW_LABELS = 3;

export const hasMeta = (c: Chat, now: number): boolean =>
  c.has_access !== false && (!!c.assigned_to || (c.label_ids?.length ?? 0) > 0 || isClosed(c) || isSnoozed(c, now));

/**
 * The chat's name; a chat without a saved name shows its number (masked with masking on), else the
 * customer's username, else 'Unknown customer' (issue 41: never the opaque `cht_…` id).
 */
function rowName(chat: Chat, masked: boolean): string {
  if (chat.has_access === false) return 'Restricted chat';
  return chatDisplayName(chat, masked);
}

/** Row of a chat the viewer may not open: dimmed, titled, not clickable (spec §6). */
export function StubRow({ chat, index }: { chat: Chat; index: number }) {
  const ts = chat.latest_message_timestamp;
  return (
    <div
      id={`chat-option-${index}`}
      role="option"
      aria-selected={false}
      aria-disabled="true"
      className="chat-row no-access"
      data-testid="chat-row"
      data-chat-id={chat.chat_id}
      data-access="none"
      title={NO_CHAT_ACCESS_MESSAGE}
    >
      <span className="avatar no-access-avatar" aria-hidden="true" style={{ width: 44, height: 44 }}>
        <Glyph name="lock" size={20} />
      </span>
      <div className="chat-row-main">
        <div className="chat-row-top">
          <span className="chat-name">Restricted chat</span>
          <ChatTime ts={ts} />
        </div>
        <div className="chat-row-bottom">
          <span className="chat-preview">{NO_CHAT_ACCESS_MESSAGE}</span>
        </div>
      </div>
    </div>
  );
}

/** The last activity time at the right of a row (nothing when the chat has none). */
function ChatTime({ ts }: { ts: number | null | undefined }) {
  return ts ? (
    <time className="chat-time" dateTime={new Date(ts).toISOString()} title={exactTime(ts)}>
      {listTime(ts)}
    </time>
  ) : null;
}

export const ChatRow = memo(function ChatRow({
  chat,
  index,
  selected,
  active,
  onOpen,
  masked,
  showPhone,
  labelsById,
  members,
}: {
  chat: Chat;
  index: number;
  selected: boolean;
  active: boolean;
  onOpen: (chat: Chat) => void;
  masked: boolean;
  showPhone: boolean;
  labelsById: Map<string, ChatLabel>;
  members: OrgMember[];
}) {
  if (chat.has_access === false) return <StubRow chat={chat} index={index} />;
  const name = rowName(chat, masked);
  const unread = totalUnread(chat);
  const markedUnread = unread === 0 && !!chat.marked_unread;
  const now = Date.now();
  const closed = isClosed(chat);
  const snoozeUntil = isSnoozed(chat, now) ? (chat.snooze_metadata?.snooze_until ?? null) : null;
  const labels = (chat.label_ids ?? []).map((id) => labelsById.get(id)).filter((l): l is ChatLabel => !!l);
  const assignee = chat.assigned_to ?? null;
  const assigneeName = assignee ? memberName(assignee, members) : null;
  const meta = hasMeta(chat, now);
  const ai = chat.ai_metadata?.activation_state;
  const lm = chat.latest_message;
  const ts = lm?.timestamp ?? chat.latest_message_timestamp;
  let prefix = '';
  if (lm?.from_me) prefix = 'You: ';
  else if (lm && isGroupChat(chat) && lm.author) prefix = `${authorName(chat, { author: lm.author, sender_phone: null })}: `;
  const preview = lm ? previewText(lm) : 'No messages yet';
  const flagged = needsReplyCount(chat);
  return (
    <div
      id={`chat-option-${index}`}
      role="option"
      aria-selected={selected}
      className={`chat-row ${selected ? 'selected' : ''} ${active ? 'active' : ''} ${unread || markedUnread ? 'unread' : ''} ${meta ? 'with-meta' : ''}`}
      data-testid="chat-row"
      data-chat-id={chat.chat_id}
      data-pinned={chat.is_pinned ? 'true' : undefined}
      data-state={chat.inbox_state ?? undefined}
      onClick={() => onOpen(chat)}
    >
      <Avatar name={name} id={chat.chat_id} />
      <div className="chat-row-main">
        <div className="chat-row-top">
          <span className="chat-name" title={name} data-testid="chat-name">
            {name}
          </span>
          {chat.is_muted && (
            <span className="row-icon" title="Muted" aria-label="Muted" data-testid="chat-muted">
              <Glyph name="bell-off" size={14} />
            </span>
          )}
          {/* issue 18: the AI agent's state (the robot is drawn by inbox.css) */}
          {ai && <i className={`row-icon ai-state ai-${ai}`} title="AI" data-testid="ai-state-icon" data-state={ai} />}
          {chat.is_pinned && (
            <span className="row-icon" title="Pinned" aria-label="Pinned" data-testid="chat-pinned">
              <Icon name="pushpin" size={14} />
            </span>
          )}
          <ChatTime ts={ts} />
        </div>
        <div className="chat-row-bottom">
          <span className="chat-preview" title={preview}>
            {lm?.from_me && <Ack ack={lm.ack} />}
            {prefix && <span className="preview-prefix">{prefix}</span>}
            {preview}
          </span>
          {showPhone && chat.org_phone && (
            <span className="phone-tag" title={`Your number: ${formatPhone(chat.org_phone)}`}>
              {formatPhone(chat.org_phone)}
            </span>
          )}
          {chat.sla && <SlaBadge chat={chat} now={now} />}
          {flagged > 0 && (
            <span className="chat-flag" data-testid="chat-flag" title={`${flagged} flagged message${flagged === 1 ? '' : 's'} need${flagged === 1 ? 's' : ''} a reply`} aria-label={`Needs reply: ${flagged} flagged`}>
              <Icon name="flag" size={14} />
            </span>
          )}
          {unread > 0 && (
            <span className="unread-badge" data-testid="unread-badge" aria-label={`${unread} unread message${unread === 1 ? '' : 's'}`}>
              {unread > 999 ? '999+' : unread}
            </span>
          )}
          {markedUnread && <span className="unread-badge marked" data-testid="marked-unread" title="Marked as unread" aria-label="Marked as unread" />}
        </div>
        {meta && (
          <div className="chat-row-meta">
            {assignee && (
              <span className="row-assignee" title={`Assigned to ${assigneeName}`} data-testid="chat-assignee" data-email={assignee}>
                <MemberAvatar email={assignee} name={assigneeName ?? assignee} size={18} />
                <span className="row-assignee-name">{assigneeName}</span>
              </span>
            )}
            {closed && (
              <span className="state-chip closed" data-testid="chat-closed-chip">
                Closed
              </span>
            )}
            {snoozeUntil !== null && (
              <span className="state-chip snoozed" data-testid="chat-snoozed-chip" title={`Snoozed until ${exactTime(snoozeUntil)}`}>
                <Glyph name="clock" size={12} /> {snoozeUntilText(snoozeUntil, now)}
              </span>
            )}
            {labels.slice(0, ROW_LABELS).map((l) => (
              <ChatLabelChip key={l.label_id} name={l.name} color={l.color} />
            ))}
            {labels.length > ROW_LABELS && (
              <span className="muted small" title={labels.slice(ROW_LABELS).map((l) => l.name).join(', ')}>
                +{labels.length - ROW_LABELS}
              </span>
            )}
          </div>
        )}
      </div>
    </div>
  );
});
