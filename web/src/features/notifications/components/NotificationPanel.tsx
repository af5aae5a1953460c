/**
 * The notifications bell's dropdown (loaded on first open, so the first screen does not carry
 * the popover): newest first, with loading, empty and error states, 'Mark all as read' and older
 * pages, on the kit's AnchoredPopover under the bell. Focus moves onto it on open; Esc closes it
 * (`onClose(true)`: focus back to the bell), a click outside or on a notification closes it.
 */
import { AnchoredPopover } from '../../../components/ui/Popover.tsx';
import { exactTime, listTime } from '../../../lib/format.ts';
import { useNotifications } from './NotificationsProvider.tsx';

/** The dropdown, open while mounted, under `anchor`. */
export default function NotificationPanel({ anchor, align, onClose }: { anchor: HTMLElement | null; align: 'start' | 'end'; onClose: (restoreFocus: boolean) => void }) {
  const { items, unread, status, error, cursor, loadingMore, reload, loadMore, markAllRead, openNotification } = useNotifications();
  return (
    <AnchoredPopover anchor={anchor} onClose={onClose} label="Notifications" testId="notifications-panel" className="ntf-panel" side="bottom" align={align} focusContent>
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
                  onClose(false);
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
    </AnchoredPopover>
  );
}
