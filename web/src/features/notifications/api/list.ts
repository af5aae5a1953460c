/**
 * Pure helpers of the notification list in the browser: kept newest first (ids are 'ntf_' + ULID,
 * so the id order is the time order), merged by id so a notification seen over the socket and in a
 * fetched page shows once; read marks applied locally before the server answers.
 */
import type { Notification } from '#shared/notification/notification.schemas.ts';

/** Merge notifications (any order) into a newest-first list; a later copy wins over an earlier one. */
export function upsertNotifications(list: readonly Notification[], incoming: readonly Notification[]): Notification[] {
  const byId = new Map(list.map((n) => [n.notification_id, n]));
  for (const n of incoming) {
    const known = byId.get(n.notification_id);
    // a copy read here must not become unread again because an older snapshot arrived
    byId.set(n.notification_id, known?.read_at != null && n.read_at == null ? { ...n, read_at: known.read_at } : n);
  }
  return [...byId.values()].sort((a, b) => (a.notification_id < b.notification_id ? 1 : a.notification_id > b.notification_id ? -1 : 0));
}

/** The list with these notifications (or all, 'all') marked read at `at` (epoch ms), and how many were unread. */
export function markReadLocally(list: readonly Notification[], ids: readonly string[] | 'all', at: number): { list: Notification[]; changed: number } {
  const want = ids === 'all' ? null : new Set(ids);
  let changed = 0;
  const next = list.map((n) => {
    if (n.read_at != null || (want && !want.has(n.notification_id))) return n;
    changed++;
    return { ...n, read_at: at };
  });
  return { list: next, changed };
}

/** Where clicking a notification goes: its chat (showing the message when it names one), or nowhere. */
export function notificationHref(n: Pick<Notification, 'chat_id' | 'unique_id'>): string | null {
  if (!n.chat_id) return null;
  const base = `/chats/${encodeURIComponent(n.chat_id)}`;
  return n.unique_id ? `${base}?message=${encodeURIComponent(n.unique_id)}` : base;
}

/** The bell's badge text: nothing at 0, '99+' above 99. */
export const unreadBadge = (n: number): string => (n <= 0 ? '' : n > 99 ? '99+' : String(n));
