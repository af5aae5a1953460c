/**
 * The chat list: virtualized rows (@tanstack/react-virtual), newest first, more pages loaded as the
 * end comes into view. Keyboard (list focused): Up/Down or J/K move, Enter opens, Home/End jump.
 * Shows a skeleton while loading, an empty state, and an error state with Retry.
 */
import { ListSkeleton, LoadError } from '../components/ui/ListStates.tsx';
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import { useInbox } from '../app/inbox.tsx';
import { useSession } from '../app/session.tsx';
import { chatDisplayName, exactTime, formatPhone, listTime, previewText, isGroupChat, authorName } from '../lib/format.ts';
import { Avatar } from './Avatar.tsx';
import { Ack } from './Ack.tsx';
import { Icon } from '../layout/Icon.tsx';
import { needsReplyCount } from '../lib/messageActions.ts';

const ROW_HEIGHT = 72;

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
}: {
  chat: Chat;
  index: number;
  selected: boolean;
  active: boolean;
  onOpen: (chat: Chat) => void;
}) {
  const name = chatDisplayName(chat);
  const unread = totalUnread(chat);
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
      className={`chat-row ${selected ? 'selected' : ''} ${active ? 'active' : ''} ${unread ? 'unread' : ''}`}
      data-testid="chat-row"
      data-chat-id={chat.chat_id}
      onClick={() => onOpen(chat)}
    >
      <Avatar name={name} id={chat.chat_id} />
      <div className="chat-row-main">
        <div className="chat-row-top">
          <span className="chat-name" title={name}>
            {name}
          </span>
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
          {chat.org_phone && (
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
        </div>
      </div>
    </div>
  );
});

export const ChatList = forwardRef<ChatListHandle, { selectedId: string | null; onOpen: (chat: Chat) => void }>(function ChatList(
  { selectedId, onOpen },
  ref,
) {
  const { chats, status, error, cursor, loadMore, loadingMore, loadMoreError, reload } = useInbox();
  const { org } = useSession();
  const parentRef = useRef<HTMLDivElement>(null);
  const [activeId, setActiveId] = useState<string | null>(selectedId);

  useEffect(() => {
    if (selectedId) setActiveId(selectedId);
  }, [selectedId]);

  const footer = cursor !== null || loadMoreError !== null;
  const virtualizer = useVirtualizer({
    count: chats.length + (footer ? 1 : 0),
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
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
          onOpen(chats[activeIndex]);
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
  } else if (chats.length === 0) {
    body = (
      <div className="state-box empty">
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
