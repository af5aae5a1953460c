import { Entity } from 'electrodb';

/**
 * In-app notification of one member (spec §3 user preferences 'notifications'; issue 4): a
 * mention in a private note, an assignment, a snoozed chat waking up… Stored under its recipient
 * (org_id + email), `notification_id` = 'ntf_' + ULID, so the recipient's list is one Query,
 * newest first with a descending read. `state` keys the unread list (badge count, 'Mark all as
 * read'). `created_at` / `read_at` are epoch **ms**; `expires_at` is the table's TTL, epoch
 * **seconds** (90 days after creation).
 */
export const NotificationEntity = new Entity({
  model: { entity: 'notification', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** the recipient (member email) */
    email: { type: 'string', required: true },
    notification_id: { type: 'string', required: true },
    /** 'mention' | 'assigned' | 'snooze_woke' | … (open set: features add their own kinds) */
    kind: { type: 'string', required: true },
    title: { type: 'string', required: true },
    body: { type: 'string', required: true },
    /** the chat it points at (clicking opens /chats/{chat_id}) */
    chat_id: { type: 'string' },
    /** the message it points at (e.g. the note that mentions the recipient) */
    unique_id: { type: 'string' },
    /** who caused it (member email, or 'system') */
    actor: { type: 'string', required: true },
    /** epoch ms */
    created_at: { type: 'number', required: true },
    /** epoch ms when the recipient read it */
    read_at: { type: 'number' },
    /** index key: 'unread' until read */
    state: { type: ['unread', 'read'] as const, required: true, default: 'unread' },
    /** TTL, epoch seconds */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    // notifications of a member, newest first (Query desc)
    byRecipient: { pk: { field: 'pk', composite: ['org_id', 'email'] }, sk: { field: 'sk', composite: ['notification_id'] } },
    // unread (or read) notifications of a member: badge count and 'Mark all as read'
    byState: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'email', 'state'] }, sk: { field: 'gsi1sk', composite: ['notification_id'] } },
  },
});
