/**
 * My notifications as a TanStack infinite query (`notificationKeys.list`): pages of
 * GET /notifications (newest first, the API's cursor), the first page carrying my unread total
 * (`unread_count`, kept live). A live notification.created joins the first page and, when new and
 * unread, counts; marking read applies locally first (markReadLocally) and then takes the
 * server's total. Pure functions over the cached data.
 */
import type { InfiniteData } from '@tanstack/react-query';
import type { ListNotificationsResponse, Notification } from '#shared/notification/notification.schemas.ts';
import { markReadLocally, upsertNotifications } from './list.ts';

/** Query keys of the notifications feature. */
export const notificationKeys = {
  list: (orgId: string) => ['orgs', orgId, 'notifications'] as const,
};

export type NotificationData = InfiniteData<ListNotificationsResponse, string | null>;

/** Every loaded notification, newest first, without duplicates. */
export const loadedNotifications = (data: { pages: ListNotificationsResponse[] } | undefined): Notification[] =>
  upsertNotifications([], (data?.pages ?? []).flatMap((p) => p.notifications));

/** The unread total (the first page's, kept live). */
export const unreadOf = (data: { pages: ListNotificationsResponse[] } | undefined): number => data?.pages[0]?.unread_count ?? 0;

function withFirst(data: NotificationData, fn: (p: ListNotificationsResponse) => ListNotificationsResponse): NotificationData {
  return { ...data, pages: [fn(data.pages[0]!), ...data.pages.slice(1)] };
}

/** A live notification: into the first page; a new unread one counts. `fresh`: it was not loaded yet. */
export function addNotification(data: NotificationData | undefined, n: Notification): { data: NotificationData | undefined; fresh: boolean } {
  if (!data || data.pages.length === 0) return { data, fresh: true };
  const fresh = !data.pages.some((p) => p.notifications.some((x) => x.notification_id === n.notification_id));
  const next = withFirst(data, (p) => ({ ...p, notifications: upsertNotifications(p.notifications, [n]), unread_count: p.unread_count + (fresh && n.read_at == null ? 1 : 0) }));
  return { data: next, fresh };
}

/** Mark these (or all) read locally at `at` (epoch ms); `changed`: how many were unread. */
export function markRead(data: NotificationData | undefined, ids: readonly string[] | 'all', at: number): { data: NotificationData | undefined; changed: number } {
  if (!data || data.pages.length === 0) return { data, changed: 0 };
  let changed = 0;
  const pages = data.pages.map((p) => {
    const r = markReadLocally(p.notifications, ids, at);
    changed += r.changed;
    return r.changed ? { ...p, notifications: r.list } : p;
  });
  const unread = ids === 'all' ? 0 : Math.max(0, (pages[0]?.unread_count ?? 0) - changed);
  return { data: { ...data, pages: pages.map((p, i) => (i === 0 ? { ...p, unread_count: unread } : p)) }, changed };
}

/** The server's unread total after a mark. */
export const setUnread = (data: NotificationData | undefined, unread: number): NotificationData | undefined => (data && data.pages.length ? withFirst(data, (p) => ({ ...p, unread_count: unread })) : data);
