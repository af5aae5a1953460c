/**
 * The notifications bell of the top area (next to the tasks button: in the sidebar on wide screens,
 * floating at the top right on phones) with my unread count, and its dropdown: newest first, with
 * loading, empty and error states, 'Mark all as read', and older pages. Clicking a notification
 * marks it read and opens its chat (on the note that mentioned me). Esc or a click outside closes
 * the dropdown; focus goes back to the bell.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Icon } from '../../../components/ui/Icon.tsx';
import { exactTime, listTime } from '../../../lib/format.ts';
import { useNotifications } from './NotificationsProvider.tsx';
import { unreadBadge } from '../api/list.ts';
import './notifications.css';

const PANEL_WIDTH = 340;

export function NotificationBell({ variant }: { variant: 'sidebar' | 'floating' }) {
  const { items, unread, status, error, cursor, loadingMore, reload, loadMore, markAllRead, openNotification } = useNotifications();
  const [open, setOpen] = useState(false);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const label = `Notifications${unread ? `, ${unread} unread` : ''}`;

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) button.current?.focus();
  }, []);

  // place the dropdown beside the bell, inside the viewport
  useLayoutEffect(() => {
    if (!open) return;
    const r = button.current?.getBoundingClientRect();
    if (!r) return;
    const width = Math.min(PANEL_WIDTH, window.innerWidth - 16);
    const left = variant === 'floating' ? window.innerWidth - width - 8 : Math.min(r.left, window.innerWidth - width - 8);
    setPos({ left: Math.max(8, left), top: r.bottom + 6 });
  }, [open, variant]);

  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!panel.current?.contains(t) && !button.current?.contains(t)) close(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close(true);
      }
    };
    document.addEventListener('pointerdown', onDown, true);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown, true);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, close]);

  const badge = unreadBadge(unread);
  return (
    <>
      <button
        ref={button}
        type="button"
        className={variant === 'sidebar' ? `nav-link tasks-nav-btn ntf-nav-btn ${open ? 'active' : ''}` : `tasks-fab ntf-fab ${open ? 'active' : ''}`}
        data-testid="notifications-button"
        aria-label={label}
        aria-haspopup="dialog"
        aria-expanded={open}
        title="Notifications"
        onClick={() => (open ? close(false) : setOpen(true))}
      >
        <Icon name="bell" />
        {variant === 'sidebar' && <span className="nav-label">Notifications</span>}
        {/* always in the DOM (tests read data-count); hidden while nothing is unread */}
        <span className="nav-badge ntf-badge" data-testid="notifications-badge" data-count={unread} aria-hidden="true" hidden={!badge}>
          {badge}
        </span>
      </button>
      {open &&
        createPortal(
          <div
            ref={panel}
            className="ntf-panel"
            role="dialog"
            aria-label="Notifications"
            data-testid="notifications-panel"
            tabIndex={-1}
            style={pos ? { left: pos.left, top: pos.top, width: Math.min(PANEL_WIDTH, window.innerWidth - 16) } : { visibility: 'hidden' }}
          >
            <div className="ntf-head">
              <h2>Notifications</h2>
              <button type="button" className="link-btn" data-testid="notifications-mark-all" disabled={unread === 0} onClick={markAllRead}>
                Mark all as read
              </button>
            </div>
            {status === 'loading' && items.length === 0 && (
              <p className="ntf-state muted" role="status">
                Loading notifications…
              </p>
            )}
            {status === 'error' && items.length === 0 && (
              <div className="ntf-state" role="alert" data-testid="notifications-error">
                <p>{error ?? 'Could not load notifications.'}</p>
                <button type="button" className="btn" onClick={reload}>
                  Try again
                </button>
              </div>
            )}
            {status === 'ready' && items.length === 0 && (
              <p className="ntf-state muted" data-testid="notifications-empty">
                No notifications yet. When a teammate mentions you in a private note, it shows up here.
              </p>
            )}
            {items.length > 0 && (
              <ul className="ntf-list">
                {items.map((n) => (
                  <li key={n.notification_id}>
                    <button
                      type="button"
                      className={`ntf-item ${n.read_at == null ? 'unread' : ''}`}
                      data-testid="notification-item"
                      data-unread={String(n.read_at == null)}
                      data-kind={n.kind}
                      onClick={() => {
                        close(false);
                        openNotification(n);
                      }}
                    >
                      {n.read_at == null && <span className="ntf-dot" aria-label="Unread" />}
                      <span className="ntf-text">
                        <span className="ntf-title">{n.title}</span>
                        {n.body && <span className="ntf-body">{n.body}</span>}
                      </span>
                      <time className="ntf-time" dateTime={new Date(n.created_at).toISOString()} title={exactTime(n.created_at)}>
                        {listTime(n.created_at)}
                      </time>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {cursor && (
              <button type="button" className="link-btn ntf-more" disabled={loadingMore} onClick={loadMore}>
                {loadingMore ? 'Loading…' : 'Show older'}
              </button>
            )}
          </div>,
          document.body,
        )}
    </>
  );
}
