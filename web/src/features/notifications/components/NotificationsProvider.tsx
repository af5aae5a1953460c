/**
 * In-app notifications of the signed-in member in the current organization (issue 4):
 * - the first page of GET /notifications (newest first) and the unread total, loaded at start and
 *   again after a socket reconnect; older pages on demand;
 * - a live `notification.created` for me (the inbox re-broadcasts it as a `notification` event) is
 *   added at the top, counted unread, shown as a toast and, when the browser granted permission, as
 *   a browser notification (clicking it opens the chat);
 * - marking read (one, or all) changes the list at once and takes the server's unread total after.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Notification } from '#shared/notification/notification.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useToast } from '../../../app/toast.tsx';
import { markReadLocally, notificationHref, upsertNotifications } from '../api/list.ts';

export interface NotificationsState {
  items: Notification[];
  /** my unread total (server count, kept live) */
  unread: number;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  cursor: string | null;
  loadingMore: boolean;
  reload: () => void;
  loadMore: () => void;
  /** mark one or more read (no-op for ones already read) */
  markRead: (ids: string[]) => void;
  markAllRead: () => void;
  /** go where a notification points (and mark it read) */
  openNotification: (n: Notification) => void;
}

const NotificationsContext = createContext<NotificationsState | null>(null);

export function useNotifications(): NotificationsState {
  const v = useContext(NotificationsContext);
  if (!v) throw new Error('useNotifications outside NotificationsProvider');
  return v;
}

/** Show a browser notification when the browser already granted permission (asking is the notification toggle's job, spec §2). */
function browserNotify(n: Notification, onClick: () => void): void {
  if (typeof window === 'undefined' || !('Notification' in window) || window.Notification.permission !== 'granted') return;
  try {
    const shown = new window.Notification(n.title, { body: n.body, tag: n.notification_id });
    shown.onclick = () => {
      window.focus();
      onClick();
      shown.close();
    };
  } catch (e) {
    // some browsers only allow notifications from a service worker
    console.warn('browser notification failed', errorMessage(e));
  }
}

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const { orgId, subscribe } = useInbox();
  const toast = useToast();
  const navigate = useNavigate();
  const [items, setItems] = useState<Notification[]>([]);
  const [unread, setUnread] = useState(0);
  const [status, setStatus] = useState<NotificationsState['status']>('loading');
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const reload = useCallback(() => {
    const gen = ++generation.current;
    setStatus((s) => (s === 'ready' ? s : 'loading'));
    setError(null);
    api
      .notifications(orgId)
      .then((page) => {
        if (gen !== generation.current) return;
        setItems((prev) => upsertNotifications(prev, page.notifications));
        setCursor(page.cursor);
        setUnread(page.unread_count);
        setStatus('ready');
      })
      .catch((e) => {
        if (gen !== generation.current) return;
        setError(errorMessage(e));
        setStatus((s) => (s === 'ready' ? s : 'error'));
      });
  }, [orgId]);

  const loadMore = useCallback(() => {
    if (!cursor || loadingMore) return;
    setLoadingMore(true);
    api
      .notifications(orgId, cursor)
      .then((page) => {
        setItems((prev) => upsertNotifications(prev, page.notifications));
        setCursor(page.cursor);
      })
      .catch((e) => toast.show(errorMessage(e), 'error'))
      .finally(() => setLoadingMore(false));
  }, [orgId, cursor, loadingMore, toast]);

  useEffect(() => reload(), [reload]);

  const mark = useCallback(
    (ids: string[] | 'all') => {
      const local = markReadLocally(itemsRef.current, ids, Date.now());
      if (ids !== 'all' && local.changed === 0) return;
      setItems(local.list);
      setUnread((u) => (ids === 'all' ? 0 : Math.max(0, u - local.changed)));
      api
        .markNotificationsRead(orgId, ids === 'all' ? { all: true } : { ids })
        .then((r) => setUnread(r.unread_count))
        .catch((e) => {
          toast.show(`Could not mark notifications as read: ${errorMessage(e)}`, 'error');
          reload();
        });
    },
    [orgId, toast, reload],
  );
  const markRead = useCallback((ids: string[]) => mark(ids), [mark]);
  const markAllRead = useCallback(() => mark('all'), [mark]);

  const openNotification = useCallback(
    (n: Notification) => {
      if (n.read_at == null) mark([n.notification_id]);
      const href = notificationHref(n);
      if (href) navigate(href);
    },
    [mark, navigate],
  );
  const openRef = useRef(openNotification);
  openRef.current = openNotification;

  // live: notification.created (mine only; the fan-out sends nobody else's)
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind === 'resync') reload();
        else if (e.kind === 'notification') {
          const n = e.notification;
          const known = itemsRef.current.some((x) => x.notification_id === n.notification_id);
          setItems((prev) => upsertNotifications(prev, [n]));
          if (known) return;
          if (n.read_at == null) setUnread((u) => u + 1);
          toast.show(n.body ? `${n.title}: ${n.body}` : n.title, 'info');
          browserNotify(n, () => openRef.current(n));
        }
      }),
    [subscribe, reload, toast],
  );

  const value = useMemo<NotificationsState>(
    () => ({ items, unread, status, error, cursor, loadingMore, reload, loadMore, markRead, markAllRead, openNotification }),
    [items, unread, status, error, cursor, loadingMore, reload, loadMore, markRead, markAllRead, openNotification],
  );
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>;
}
