/**
 * /chats and /chats/:chatId: chat list | thread. On phone-width screens one pane at a time (the list,
 * or the open thread with a back button). Keyboard: J/K (outside text fields) move through chats,
 * Esc closes the open thread.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { useInbox } from '../app/inbox.tsx';
import { useSession } from '../app/session.tsx';
import { ChatList, type ChatListHandle } from './ChatList.tsx';
import { Thread } from './Thread.tsx';
import { MenuButton } from '../layout/MenuButton.tsx';
import { unreadChatCount } from '../lib/chats.ts';

const isTyping = (t: EventTarget | null): boolean =>
  t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

export function ChatsPage() {
  const { chatId } = useParams();
  const navigate = useNavigate();
  const { chats } = useInbox();
  const { org } = useSession();
  const listRef = useRef<ChatListHandle>(null);
  const selected = chatId ?? null;

  const open = useCallback((chat: Chat) => navigate(`/chats/${encodeURIComponent(chat.chat_id)}`), [navigate]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      // read the URL, not render state: Esc right after opening a chat must close it too
      if (e.key === 'Escape' && /^\/chats\/.+/.test(window.location.pathname)) {
        if (document.querySelector('.sidebar.open')) return;
        // the open task panel takes Esc first (it closes itself)
        if (document.querySelector('[data-testid="task-panel"]:not([hidden])')) return;
        e.preventDefault();
        navigate('/chats');
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

  const unread = unreadChatCount(chats);

  return (
    <div className={`inbox ${selected ? 'has-thread' : ''}`}>
      <section className="pane-list" aria-label="Chat list">
        <header className="pane-header">
          <MenuButton />
          <h1>Chats</h1>
          <span className="muted small pane-sub">
            {unread > 0 ? `${unread} unread` : org.org_name}
          </span>
        </header>
        <ChatList ref={listRef} selectedId={selected} onOpen={open} />
      </section>
      <section className="pane-thread" aria-label="Conversation">
        {selected ? (
          <Thread key={selected} chatId={selected} />
        ) : (
          <div className="no-thread">
            <div className="no-thread-card">
              <h2>Chorus</h2>
              <p>Select a chat to read and reply.</p>
              <p className="muted small">
                <kbd>↑</kbd>/<kbd>↓</kbd> or <kbd>J</kbd>/<kbd>K</kbd> move through chats · <kbd>Enter</kbd> opens · <kbd>Esc</kbd> closes
              </p>
            </div>
          </div>
        )}
      </section>
    </div>
  );
}
