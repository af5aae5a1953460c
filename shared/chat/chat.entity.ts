import { Entity } from 'electrodb';

/**
 * Chat, spec §3. One chat per customer (or group) per org, reachable through one or more org
 * numbers (`chat_org_phones`). State read on every list row is kept on this item and updated on
 * write (unread per phone, latest message); `version` guards read-modify-write updates.
 * Timestamps are epoch **ms**.
 */
export const ChatEntity = new Entity({
  model: { entity: 'chat', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** `{wa_id}@c.us` for a 1:1 chat, `{group_id}@g.us` for a group */
    chat_id: { type: 'string', required: true },
    chat_name: { type: 'string' },
    chat_image: { type: 'string' },
    chat_type: { type: ['user', 'group', 'other'] as const, required: true },
    /** the org number that answers by default (display digits) */
    org_phone: { type: 'string', required: true },
    /** phone_id of `org_phone` */
    phone_id: { type: 'string', required: true },
    chat_org_phones: { type: 'list', items: { type: 'string' } },
    /** summary of the newest message: { unique_id, message_id, body, message_type, from_me, ack, timestamp, author } */
    latest_message: { type: 'any' },
    /** epoch ms of the newest message; sort key of the recent-chats index */
    latest_message_timestamp: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    /** per org phone: epoch ms */
    latest_message_timestamp_map: { type: 'any' },
    /** per org phone: count of unread customer messages */
    unread_count: { type: 'any' },
    message_unread_count: { type: 'number', default: 0 },
    /** per org phone: epoch ms of the customer's last message (24 h service window, Meta A.8) */
    last_customer_message_at: { type: 'any' },
    /** members keyed by phone: { contact_name, contact_id } */
    members: { type: 'any' },
    label_ids: { type: 'list', items: { type: 'string' } },
    /** spec §3 flag_count_map: flagged messages waiting for a reply, per org phone */
    flag_count_map: { type: 'any' },
    /** flagged messages waiting for a reply: { [unique_id]: org_phone } (cleared when we answer) */
    flagged_messages: { type: 'any' },
    /** pinned messages: { [unique_id]: { expires_at, pinned_by, pinned_at, body } } (epoch ms; expired ones are dropped on the next write) */
    pinned_messages: { type: 'any' },
    assigned_to: { type: 'string' },
    closed_at: { type: 'number' },
    is_muted: { type: 'boolean', default: false },
    is_archived: { type: 'boolean', default: false },
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    version: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    // chat by id
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['chat_id'] } },
    // chats of an org, newest first (Query desc on gsi1)
    byRecent: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['org_id'] },
      sk: { field: 'gsi1sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
  },
});
