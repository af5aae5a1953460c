/**
 * /chats and /chats/:chatId: filter bar + chat list | thread. On phone-width screens one pane at a
 * time (the list, or the open thread with a back button). /chats/{chat_id} also works on its own
 * (a new tab): the thread loads the chat by id whether or not it is in the list.
 * Filters live in the URL query (`state`, `unread`, `assignee`, `label_id`, `phone`, `type`, the
 * API's names) so a reload keeps them; a /chats URL without them (the sidebar link, the thread's
 * back button) gets the current ones back.
 * The list's "⋯" menu has 'Refresh team permissions' (the list, counts, labels and members again).
 * Keyboard: J/K (outside text fields) move through chats, Esc closes the open thread.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { ChatList, type ChatListHandle } from './ChatList.tsx';
import { ChatFilters } from './ChatFilters.tsx';
import { SearchBox } from '../../search/index.ts';
import { refreshMembers } from '../../../lib/members.ts';
import { MessageMenu } from '../../../components/ui/Menu.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { filterFromSearch, filterKey, filterParams, hasFilterParams, isDefaultFilter, withFilterParams, type ChatFilter } from '../api/chats.ts';

// The thread (messages, composer, chat actions) is its own chunk: /chats shows the list first and
// loads it when a chat opens, or in idle time so opening the first chat does not wait.
const loadThread = () => import('./Thread.tsx');
const Thread = lazy(() => loadThread().then((m) => ({ default: m.Thread })));

/** spec §8 'Chat reload' */
const RELOAD_FAILED = 'Failed to reload chats. Please contact support';

const isTyping = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

const searchOf = (f: ChatFilter): string => {
  const q = new URLSearchParams(filterParams(f)).toString();
  return q ? `?${q}` : '';
};

export function ChatsPage() {
  const { chatId } = useParams();
  const navigate = useNavigate();
  const inbox = useInbox();
  const { filter, setFilter, counts, labels, reload, reloadCounts, reloadLabels } = inbox;
  const { org } = useSession();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const listRef = useRef<ChatListHandle>(null);
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const menuBtn = useRef<HTMLButtonElement>(null);
  const selected = chatId ?? null;
  const filterRef = useRef(filter);
  filterRef.current = filter;

  // URL -> filters (reload, back/forward); a /chats URL without filters gets the current ones back
  useEffect(() => {
    if (hasFilterParams(params)) {
      const f = filterFromSearch(params);
      if (filterKey(f) !== filterKey(filterRef.current)) setFilter(f);
    } else if (!isDefaultFilter(filterRef.current)) {
      setParams((prev) => withFilterParams(prev, filterRef.current), { replace: true });
    }
  }, [params, setFilter, setParams]);

  const applyFilter = useCallback(
    (f: ChatFilter) => {
      filterRef.current = f;
      setFilter(f);
      setParams((prev) => withFilterParams(prev, f), { replace: true });
    },
    [setFilter, setParams],
  );

  const open = useCallback(
    (chat: Chat) => navigate({ pathname: `/chats/${encodeURIComponent(chat.chat_id)}`, search: searchOf(filterRef.current) }),
    [navigate],
  );

  const refreshPermissions = useCallback(async () => {
    void refreshMembers(org.org_id);
    reloadCounts();
    reloadLabels();
    const ok = await reload();
    toast.show(ok ? 'Team permissions refreshed' : RELOAD_FAILED, ok ? 'success' : 'error');
  }, [org.org_id, reload, reloadCounts, reloadLabels, toast]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      // read the URL, not render state: Esc right after opening a chat must close it too
      if (e.key === 'Escape' && /^\/chats\/.+/.test(window.location.pathname)) {
        if (document.querySelector('.sidebar.open')) return;
        // the open task panel takes Esc first (it closes itself)
        if (document.querySelector('[data-testid="task-panel"]:not([hidden])')) return;
        e.preventDefault();
        navigate({ pathname: '/chats', search: searchOf(filterRef.current) });
        requestAnimationFrame(() => listRef.current?.focus());
        return;
      }
      if (isTyping(e.target)) return;
      const inList = e.target instanceof HTMLElement && e.target.closest('[data-testid="chat-list"]');
      if (inList) return; // the list handles its own keys
      if (e.key === 'j' || e.key === 'k') {
        e.preventDefault();
        listRef.current?.move(e.key === 'j' ? 1 : -1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  useEffect(() => {
    if (selected) return;
    const prefetch = () => void loadThread();
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(prefetch, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(prefetch, 1000);
    return () => clearTimeout(id);
  }, [selected]);

  const unread = counts?.open.unread ?? 0;

  return (
    <div className={`inbox ${selected ? 'has-thread' : ''}`}>
      <section className="pane-list" aria-label="Chat list">
        <header className="pane-header">
          <MenuButton />
          <h1>Chats</h1>
          <span className="muted small pane-sub" data-testid="chats-unread-count">
            {unread > 0 ? `${unread} unread` : org.org_name}
          </span>
          <button
            ref={menuBtn}
            type="button"
            className="icon-btn"
            aria-haspopup="menu"
            aria-expanded={menuAt !== null}
            aria-label="Chat list menu"
            title="Chat list menu"
            data-testid="chat-list-menu"
            onClick={(e) => {
              const r = e.currentTarget.getBoundingClientRect();
              setMenuAt((m) => (m ? null : { x: r.right - 240, y: r.bottom + 4 }));
            }}
          >
            <Icon name="more" />
          </button>
          {menuAt && (
            <MessageMenu
              at={menuAt}
              label="Chat list"
              testId="chat-list-menu-items"
              items={[{ id: 'refresh', label: 'Refresh team permissions', testId: 'refresh-permissions', onSelect: () => void refreshPermissions() }]}
              onClose={(restore) => {
                setMenuAt(null);
                if (restore) menuBtn.current?.focus();
              }}
            />
          )}
        </header>
        <SearchBox />
        <ChatFilters filter={filter} onChange={applyFilter} counts={counts} labels={labels} phones={org.phones.map((p) => p.org_phone)} />
        <ChatList ref={listRef} selectedId={selected} onOpen={open} onClearFilters={() => applyFilter({ state: 'open' })} />
      </section>
      <section className="pane-thread" aria-label="Conversation">
        {selected ? (
          <Suspense fallback={<div className="page-loading" role="status" aria-label="Loading conversation"><div className="spinner" aria-hidden="true" /></div>}>
            <Thread key={selected} chatId={selected} />
          </Suspense>
        ) : (
          <div className="no-thread">
            <div className="no-thread-card">
              <h2>Chorus</h2>
              <p>Select a chat to read and reply.</p>
              <p className="muted small">
                <kbd>↑</kbd>/<kbd>↓</kbd> or <kbd>J</kbd>/<kbd>K</kbd> move through chats · <kbd>Enter</kbd> opens · <kbd>Esc</kbd> closes
              </p>
              <p className="muted small">
                In a chat: <kbd>A</kbd> assign · <kbd>L</kbd> labels · <kbd>S</kbd> snooze · <kbd>C</kbd> close · <kbd>U</kbd> mark unread
              </p>
            </div>
          </div>
        )}
      </section>
    </div>
  );
}
