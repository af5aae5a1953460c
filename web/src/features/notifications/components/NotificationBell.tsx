/**
 * The notifications bell of the top area (next to the tasks button: in the sidebar on wide screens,
 * floating at the top right on phones) with my unread count; it toggles its dropdown
 * (NotificationPanel, loaded on first open). Clicking a notification marks it read and opens its
 * chat (on the note that mentioned me). Esc or a click outside closes the dropdown; after Esc focus
 * goes back to the bell.
 */
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { Icon } from '../../../components/ui/Icon.tsx';
import { useNotifications } from './NotificationsProvider.tsx';
import { unreadBadge } from '../api/list.ts';
import './notifications.css';

const NotificationPanel = lazy(() => import('./NotificationPanel.tsx'));

/** The bell with my unread count; `variant` is where it sits (sidebar row or floating button). */
export function NotificationBell({ variant }: { variant: 'sidebar' | 'floating' }) {
  const { unread } = useNotifications();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const label = `Notifications${unread ? `, ${unread} unread` : ''}`;

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) button.current?.focus();
  }, []);

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
      {open && (
        <Suspense fallback={null}>
          <NotificationPanel anchor={button.current} align={variant === 'floating' ? 'end' : 'start'} onClose={close} />
        </Suspense>
      )}
    </>
  );
}
