import { ulid } from 'ulid';
import type { EntityItem } from 'electrodb';
import { db } from '../db/service.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { withCursor } from '../db/paging.ts';
import type { NotificationEntity } from './notification.entity.ts';
import { MAX_UNREAD_COUNTED, type ListNotificationsQuery, type ListNotificationsResponse, type MarkNotificationsReadResponse, type Notification } from './notification.schemas.ts';

/**
 * In-app notifications (issue 4; spec §3 user preferences 'notifications'): one row per
 * (recipient, notification), listed newest first, marked read one by one or all at once. Any
 * feature notifies a member through `notifyMember` (mentions in private notes today; assignments
 * and snooze wake-ups later). Rows expire 90 days after creation (TTL `expires_at`, epoch s).
 *
 * The unread count is read from the unread index (byState, ACCESS_PATTERNS.md) instead of a counter kept on write:
 * rows leave the table through TTL without any write of ours, so a counter would drift upwards;
 * the index holds only what is really there (counted up to MAX_UNREAD_COUNTED).
 */

type NotificationItem = EntityItem<typeof NotificationEntity>;

/** How long a notification is kept (TTL). */
export const NOTIFICATION_TTL_DAYS = 90;

/** What a feature says when it notifies someone. */
export interface NotifyInput {
  /** 'mention' | 'assigned' | 'snooze_woke' | … */
  kind: string;
  title: string;
  body: string;
  /** the chat it points at: clicking the notification opens /chats/{chat_id} */
  chat_id?: string | null;
  /** the message it points at */
  unique_id?: string | null;
  /** who caused it: member email, or 'system' */
  actor: string;
}

/** Item -> wire shape (drops the index key `state` and the TTL). */
export function toNotificationWire(n: NotificationItem): Notification {
  return {
    org_id: n.org_id,
    email: n.email,
    notification_id: n.notification_id,
    kind: n.kind,
    title: n.title,
    body: n.body,
    chat_id: n.chat_id ?? null,
    unique_id: n.unique_id ?? null,
    actor: n.actor,
    created_at: n.created_at,
    read_at: n.read_at ?? null,
  };
}

/**
 * Store an in-app notification for member `email` of `orgId` and publish `notification.created`
 * (`{ org_id, email, notification }`), which the realtime fan-out pushes only to that member's
 * connections (the web app shows a toast, a browser notification and the bell count).
 * The caller decides who is notified (e.g. not the actor themself) and checks membership.
 * `notification_id` = 'ntf_' + ULID of `created_at` (epoch ms); `expires_at` = created_at + 90 days (epoch s).
 * @throws whatever the table throws (the row and its event are written together, or neither)
 */
export async function notifyMember(orgId: string, email: string, n: NotifyInput): Promise<void> {
  const now = Date.now();
  const row = {
    org_id: orgId,
    email,
    notification_id: `ntf_${ulid(now)}`,
    kind: n.kind,
    title: n.title,
    body: n.body,
    ...(n.chat_id ? { chat_id: n.chat_id } : {}),
    ...(n.unique_id ? { unique_id: n.unique_id } : {}),
    actor: n.actor,
    created_at: now,
    state: 'unread' as const,
    expires_at: Math.floor(now / 1000) + NOTIFICATION_TTL_DAYS * 86_400,
  };
  const notification = toNotificationWire(row as Parameters<typeof toNotificationWire>[0]);
  // the row and its event in one transaction (the outbox)
  const ok = await commitWithEvents((e) => ({
    items: [e.notification.create(row).commit() as TxItem],
    events: [{ name: 'notification.created', properties: { org_id: orgId, email, notification }, actor: n.actor === 'system' ? 'system' : `user:${n.actor}`, id: `notification.created:${orgId}:${notification.notification_id}` }],
  }));
  if (!ok) throw new Error(`notification ${row.notification_id} was not created (transaction cancelled)`);
}

/** Unread notifications of a member, counted up to MAX_UNREAD_COUNTED (index byState, keys only). */
async function unreadIds(orgId: string, email: string, max = MAX_UNREAD_COUNTED): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const res: { data: Array<{ notification_id: string }>; cursor: string | null } = await db()
      .entities.notification.query.byState({ org_id: orgId, email, state: 'unread' })
      .go({ cursor, limit: Math.min(1000, max - ids.length), attributes: ['notification_id'] });
    ids.push(...res.data.map((r) => r.notification_id));
    cursor = res.cursor ?? null;
  } while (cursor && ids.length < max);
  return ids;
}

/**
 * GET /notifications: the actor's notifications in this org, newest first (index byRecipient,
 * Query desc), cursor paged, with the unread total. Each passes the guard's view
 * (shared/access/guard.ts): numbers in titles and bodies (an unnamed chat is named by its number)
 * masked when the org masks them, and the text of one about a chat the member may no longer see
 * replaced by 'You do not have access to this chat'.
 * @throws AppError 400 query.cursor for a cursor that is not this list's
 */
export async function listNotifications(actor: Actor, page: ListNotificationsQuery): Promise<ListNotificationsResponse> {
  const [res, unread, guard] = await Promise.all([
    withCursor(page.cursor, () =>
      db()
        .entities.notification.query.byRecipient({ org_id: actor.org_id, email: actor.email })
        .go({ order: 'desc', limit: page.limit, cursor: page.cursor ?? null }),
    ),
    unreadIds(actor.org_id, actor.email),
    chatGuard(actor),
  ]);
  const items = res.data.map(toNotificationWire);
  const visible = await guard.visibleChatIds(items.flatMap((n) => (n.chat_id ? [n.chat_id] : [])));
  return { notifications: items.map((n) => guard.viewNotification(n, visible)), cursor: res.cursor ?? null, unread_count: unread.length };
}

/** Mark one notification read unless it already is (or is not the actor's). @returns whether it changed */
async function markOne(orgId: string, email: string, notificationId: string, at: number): Promise<boolean> {
  try {
    await db()
      .entities.notification.patch({ org_id: orgId, email, notification_id: notificationId })
      .set({ read_at: at, state: 'read' })
      .where(({ state }, { eq }) => eq(state, 'unread'))
      .go();
    return true;
  } catch (e) {
    // already read, or no such notification of this member (patch requires the item to exist)
    if (/conditional/i.test(String((e as Error).message))) return false;
    throw e;
  }
}

/**
 * POST /notifications/read: mark the actor's notifications read, by id or all of them. Ids of
 * other members' notifications (or unknown ids) are ignored: the key includes the actor's email.
 * @param ids notification ids, or 'all' (every unread one, through the unread index)
 * @returns how many changed and the unread total after
 */
export async function markNotificationsRead(actor: Actor, ids: string[] | 'all'): Promise<MarkNotificationsReadResponse> {
  const at = Date.now();
  const targets = ids === 'all' ? await unreadIds(actor.org_id, actor.email, Number.MAX_SAFE_INTEGER) : [...new Set(ids)];
  let updated = 0;
  // 25 writes at a time: one member's backlog should not hog the table's write capacity
  for (let i = 0; i < targets.length; i += 25) {
    const done = await Promise.all(targets.slice(i, i + 25).map((id) => markOne(actor.org_id, actor.email, id, at)));
    updated += done.filter(Boolean).length;
  }
  return { updated, unread_count: (await unreadIds(actor.org_id, actor.email)).length };
}
