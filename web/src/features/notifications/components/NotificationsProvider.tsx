/**
 * In-app notifications of the signed-in member in the current organization (issue 4):
 * - GET /notifications (newest first) and the unread total as an infinite query
 *   (api/notification-cache.ts), refetched after a socket reconnect; older pages on demand;
 * - a live `notification.created` for me is added at the top and counted unread by the realtime
 *   bridge; here a new one is shown as a toast and, when the browser granted permission, as a
 *   browser notification (clicking it opens the chat);
 * - marking read (one, or all) is a mutation: the list changes at once (onMutate), takes the
 *   server's unread total after, and a failure toasts and refetches.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { Notification } from '#shared/notification/notification.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useToast } from '../../../app/toast.tsx';
import { notificationHref } from '../api/list.ts';
import { loadedNotifications, markRead, notificationKeys, setUnread, unreadOf, type NotificationData } from '../api/notification-cache.ts';

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
  const qc = useQueryClient();
  const queryKey = useMemo(() => notificationKeys.list(orgId), [orgId]);
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => api.notifications(orgId, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
    staleTime: Infinity,
  });
  const pages = q.data?.pages;
  const items = useMemo(() => loadedNotifications(pages ? { pages } : undefined), [pages]);
  const unread = unreadOf(pages ? { pages } : undefined);
  const status: NotificationsState['status'] = q.data ? 'ready' : q.isError && !q.isFetching ? 'error' : 'loading';
  const error = q.isError && !q.isFetchNextPageError ? errorMessage(q.error) : null;
  const cursor = pages?.length ? pages[pages.length - 1]!.cursor : null;
  const loadingMore = q.isFetchingNextPage;

  const { refetch, fetchNextPage } = q;
  const reload = useCallback(() => void refetch(), [refetch]);
  const loadMore = useCallback(() => {
    if (!cursor || loadingMore) return;
    void fetchNextPage().then((r) => {
      if (r.isFetchNextPageError) toast.show(errorMessage(r.error), 'error');
    });
  }, [cursor, loadingMore, fetchNextPage, toast]);

  // marking read: shown at once, then the server's unread total; a failure refetches what is true
  const { mutate } = useMutation({
    mutationFn: (ids: string[] | 'all') => api.markNotificationsRead(orgId, ids === 'all' ? { all: true } : { ids }),
    onMutate: (ids) => {
      qc.setQueryData<NotificationData>(queryKey, (d) => markRead(d, ids, Date.now()).data);
    },
    onSuccess: (r) => qc.setQueryData<NotificationData>(queryKey, (d) => setUnread(d, r.unread_count)),
    onError: (e) => {
      toast.show(`Could not mark notifications as read: ${errorMessage(e)}`, 'error');
      void qc.invalidateQueries({ queryKey });
    },
  });
  const mark = useCallback(
    (ids: string[] | 'all') => {
      if (ids !== 'all' && markRead(qc.getQueryData<NotificationData>(queryKey), ids, 0).changed === 0) return;
      mutate(ids);
    },
    [qc, queryKey, mutate],
  );
  const markReadIds = useCallback((ids: string[]) => mark(ids), [mark]);
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

  // live: notification.created (mine only; the realtime bridge has put it in the list already)
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind !== 'notification' || e.fresh === false) return;
        const n = e.notification;
        toast.show(n.body ? `${n.title}: ${n.body}` : n.title, 'info');
        browserNotify(n, () => openRef.current(n));
      }),
    [subscribe, toast],
  );

  const value = useMemo<NotificationsState>(
    () => ({ items, unread, status, error, cursor, loadingMore, reload, loadMore, markRead: markReadIds, markAllRead, openNotification }),
    [items, unread, status, error, cursor, loadingMore, reload, loadMore, markReadIds, markAllRead, openNotification],
  );
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>;
}
