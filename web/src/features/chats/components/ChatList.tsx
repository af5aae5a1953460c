/**
 * The chat list of the current folder and filters: virtualized rows (@tanstack/react-virtual, so
 * 10,000 loaded chats scroll smoothly), pinned chats first, then newest first, more pages loaded as
 * the end comes into view. Keyboard (list focused): Up/Down or J/K move, Enter opens, Home/End jump.
 * A row shows the pin and mute icons, the assignee's initials, labels as coloured chips, 'Snoozed
 * until …' and a 'Closed' chip; a chat the viewer may not open (spec §6) is dimmed, titled
 * 'You do not have access to this chat' and not clickable. With phone masking on (non-admins) a
 * chat without a name shows its masked number.
 * Shows a skeleton while loading, an empty state (with 'Clear filters' when filters hide
 * everything), and an error state with Retry.
 */
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Chat, ChatLabel } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import { isClosed, isSnoozed } from '#shared/chat/chat-state.rules.ts';
import { maskPhone, mustMask, NO_CHAT_ACCESS_MESSAGE } from '#shared/chat/chat-access.rules.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { chatDisplayName, chatNumber, exactTime, formatPhone, listTime, previewText, isGroupChat, authorName } from '../../../lib/format.ts';
import { hasToggles, isDefaultFilter } from '../api/chats.ts';
import type { OrgMember } from '../../../lib/api.ts';
import { Avatar } from './Avatar.tsx';
import { Ack } from './Ack.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { needsReplyCount } from '../api/messageActions.ts';
import { ChatLabelChip, Glyph, MemberAvatar, memberName } from './ChatBadges.tsx';
import { useMembers } from '../../../lib/members.ts';
import { snoozeUntilText } from './SnoozeMenu.tsx';

const ROW_HEIGHT = 72;
/** a row with a line of assignee / state / labels */
const ROW_HEIGHT_META = 94;
/** label chips shown on a row (the rest as '+n') */
const ROW_LABELS = 3;

const EMPTY_FOLDER: Record<string, string> = {
  snoozed: 'No snoozed chats. A snoozed chat comes back to All when its time comes or the customer writes.',
  closed: 'No closed chats. A closed chat reopens by itself when a new message arrives.',
  archived: 'No archived chats.',
};

/** Does the row have its third line (assignee, closed, snoozed, labels)? */
const hasMeta = (c: Chat, now: number): boolean =>
  c.has_access !== false && (!!c.assigned_to || (c.label_ids?.length ?? 0) > 0 || isClosed(c) || isSnoozed(c, now));

/** The chat's name; with masking on, a chat without a saved name shows its number masked. */
function rowName(chat: Chat, masked: boolean): string {
  if (chat.has_access === false) return 'Restricted chat';
  if (masked && !chat.chat_name?.trim() && !isGroupChat(chat)) return formatPhone(maskPhone(chatNumber(chat.chat_id)));
  return chatDisplayName(chat);
}

/** Row of a chat the viewer may not open: dimmed, titled, not clickable (spec §6). */
function StubRow({ chat, index }: { chat: Chat; index: number }) {
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
          {ts ? (
            <time className="chat-time" dateTime={new Date(ts).toISOString()} title={exactTime(ts)}>
              {listTime(ts)}
            </time>
          ) : null}
        </div>
        <div className="chat-row-bottom">
          <span className="chat-preview">{NO_CHAT_ACCESS_MESSAGE}</span>
        </div>
      </div>
    </div>
  );
}

export interface ChatListHandle {
  /** move the keyboard cursor by delta and focus the list */
  move: (delta: number) => void;
  focus: () => void;
}

const ChatRow = memo(function ChatRow({
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
          {chat.is_pinned && (
            <span className="row-icon" title="Pinned" aria-label="Pinned" data-testid="chat-pinned">
              <Icon name="pushpin" size={14} />
            </span>
          )}
          {ts ? (
            <time className="chat-time" dateTime={new Date(ts).toISOString()} title={exactTime(ts)}>
              {listTime(ts)}
            </time>
          ) : null}
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

export const ChatList = forwardRef<ChatListHandle, { selectedId: string | null; onOpen: (chat: Chat) => void; onClearFilters: () => void }>(function ChatList(
  { selectedId, onOpen, onClearFilters },
  ref,
) {
  const { listChats: chats, status, error, cursor, loadMore, loadingMore, loadMoreError, reload, filter, labels } = useInbox();
  const { org, user } = useSession();
  const members = useMembers(org.org_id);
  const masked = mustMask(!!org.mask_phone_numbers, { email: user.email, role: org.role });
  const showPhone = org.phones.length > 1;
  const labelsById = useMemo(() => new Map(labels.map((l) => [l.label_id, l])), [labels]);
  const parentRef = useRef<HTMLDivElement>(null);
  const [activeId, setActiveId] = useState<string | null>(selectedId);

  useEffect(() => {
    if (selectedId) setActiveId(selectedId);
  }, [selectedId]);

  const footer = cursor !== null || loadMoreError !== null;
  const virtualizer = useVirtualizer({
    count: chats.length + (footer ? 1 : 0),
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => (chats[i] && hasMeta(chats[i], Date.now()) ? ROW_HEIGHT_META : ROW_HEIGHT),
    overscan: 10,
    getItemKey: (i) => chats[i]?.chat_id ?? '__footer__',
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;

  // load the next page when the end of the list comes into view
  useEffect(() => {
    if (status === 'ready' && cursor && !loadingMore && !loadMoreError && lastIndex >= chats.length - 5) loadMore();
  }, [status, cursor, loadingMore, loadMoreError, lastIndex, chats.length, loadMore]);

  const activeIndex = activeId ? chats.findIndex((c) => c.chat_id === activeId) : -1;

  const move = useCallback(
    (delta: number) => {
      if (chats.length === 0) return;
      const from = activeIndex >= 0 ? activeIndex : delta > 0 ? -1 : chats.length;
      const next = Math.max(0, Math.min(chats.length - 1, from + delta));
      setActiveId(chats[next].chat_id);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    },
    [chats, activeIndex, virtualizer],
  );

  useImperativeHandle(
    ref,
    () => ({
      move: (delta: number) => {
        parentRef.current?.focus({ preventScroll: true });
        move(delta);
      },
      focus: () => parentRef.current?.focus({ preventScroll: true }),
    }),
    [move],
  );

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case 'ArrowDown':
      case 'j':
        e.preventDefault();
        move(1);
        break;
      case 'ArrowUp':
      case 'k':
        e.preventDefault();
        move(-1);
        break;
      case 'Home':
        e.preventDefault();
        move(-chats.length);
        break;
      case 'End':
        e.preventDefault();
        move(chats.length);
        break;
      case 'Enter':
      case ' ':
        if (activeIndex >= 0) {
          e.preventDefault();
          if (chats[activeIndex].has_access !== false) onOpen(chats[activeIndex]);
        }
        break;
    }
  }

  const open = useCallback(
    (chat: Chat) => {
      setActiveId(chat.chat_id);
      onOpen(chat);
    },
    [onOpen],
  );

  let body: ReactNode;
  if (status === 'loading') {
    body = <ListSkeleton rows={9} label="Loading chats" avatar />;
  } else if (status === 'error') {
    body = <LoadError what="chats" error={error} onRetry={reload} />;
  } else if (chats.length === 0 && hasToggles(filter)) {
    body = (
      <div className="state-box empty" data-testid="chats-empty-filtered">
        <p>No chats match these filters</p>
        <button type="button" className="btn" onClick={onClearFilters} data-testid="chats-clear-filters">
          Clear filters
        </button>
      </div>
    );
  } else if (chats.length === 0 && !isDefaultFilter(filter)) {
    body = (
      <div className="state-box empty" data-testid="chats-empty-folder">
        <p>{EMPTY_FOLDER[filter.state]}</p>
        <button type="button" className="btn" onClick={onClearFilters}>
          Show all chats
        </button>
      </div>
    );
  } else if (chats.length === 0) {
    body = (
      <div className="state-box empty" data-testid="chats-empty">
        <p>No chats yet. When a customer messages one of your WhatsApp numbers, the chat appears here.</p>
        {org.phones.length === 0 && <p className="muted small">This organization has no WhatsApp number connected yet.</p>}
      </div>
    );
  } else {
    body = (
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {items.map((v) => {
          const chat = chats[v.index];
          return (
            <div
              key={v.key}
              className="virtual-item"
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: v.size, transform: `translateY(${v.start}px)` }}
            >
              {chat ? (
                <ChatRow
                  chat={chat}
                  index={v.index}
                  selected={chat.chat_id === selectedId}
                  active={chat.chat_id === activeId}
                  onOpen={open}
                  masked={masked}
                  showPhone={showPhone}
                  labelsById={labelsById}
                  members={members}
                />
              ) : (
                <div className="list-footer">
                  {loadMoreError ? (
                    <span>
                      Could not load more chats.{' '}
                      <button type="button" className="link-btn" onClick={loadMore}>
                        Retry
                      </button>
                    </span>
                  ) : (
                    <span className="muted">Loading more chats…</span>
                  )}
                </div>
              )}
            </div>
          );
        })}
      </div>
    );
  }

  return (
    <div
      ref={parentRef}
      className="chat-list"
      data-testid="chat-list"
      role="listbox"
      aria-label="Chats"
      aria-busy={status === 'loading'}
      aria-activedescendant={activeIndex >= 0 && items.some((v) => v.index === activeIndex) ? `chat-option-${activeIndex}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      {body}
    </div>
  );
});
