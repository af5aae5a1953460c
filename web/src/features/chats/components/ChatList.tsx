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
import { forwardRef, useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { mustMask } from '#shared/chat/chat-access.rules.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { hasToggles, isDefaultFilter } from '../api/chats.ts';
import { useMembers } from '../../../lib/members.ts';
import { ChatRow, hasMeta, ROW_HEIGHT, ROW_HEIGHT_META } from './ChatRow.tsx';

const EMPTY_FOLDER: Record<string, string> = {
  snoozed: 'No snoozed chats. A snoozed chat comes back to All when its time comes or the customer writes.',
  closed: 'No closed chats. A closed chat reopens by itself when a new message arrives.',
  archived: 'No archived chats.',
};

/** Does the row have its third line (assignee, closed, snoozed, labels)? */

export interface ChatListHandle {
  /** move the keyboard cursor by delta and focus the list */
  move: (delta: number) => void;
  focus: () => void;
}


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
