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
    /** `{wa_id}@c.us` for a 1:1 chat, `{group_id}@g.us` for a group, `cht_…` for a customer first seen without a number (issue 41) */
    chat_id: { type: 'string', required: true },
    chat_name: { type: 'string' },
    /**
     * issue 41: who the customer of a 1:1 chat is, as WhatsApp last told us (shared/contact/identity.rules.ts
     * CustomerIdentity): { wa_id? (digits), user_id? (BSUID), parent_user_id?, username? }. A chat whose
     * id is opaque (`cht_…`, a customer first seen without a number) sends to `user_id` until `wa_id` is known.
     */
    identity: { type: 'any' },
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
    /** groups: { subject, admins (digits), is_community?, fetched_at (epoch ms) } read through the number's WhatsApp Web session (shared/chat/group-metadata.rules.ts; spec §5 delete rule) */
    group_metadata: { type: 'any' },
    assigned_to: { type: 'string' },
    /** epoch ms of the last close; the chat is closed while this is later than its latest message */
    closed_at: { type: 'number' },
    /** who closed it last */
    closed_by: { type: 'string' },
    is_muted: { type: 'boolean', default: false },
    is_archived: { type: 'boolean', default: false },
    /** { snooze_until (epoch ms), snoozed_by, snoozed_at }; cleared by a customer message */
    snooze_metadata: { type: 'any' },
    /** spec §3 ai_metadata (issue 18): { activation_state, paused_until, pending, reason, updated_by, updated_at } (shared/ai/ai.schemas.ts AiMetadata) */
    ai_metadata: { type: 'any' },
    /** spec §6: member email -> may see the chat; unset = everyone (shared/chat/chat-access.rules.ts) */
    chat_access: { type: 'any' },
    /** a member marked the chat unread (cleared when it is read) */
    marked_unread: { type: 'boolean', default: false },
    /** index key: folder of the chat (chatStateFields, shared/chat/chat-state.rules.ts) */
    inbox_state: { type: ['open', 'closed', 'snoozed', 'archived'] as const, required: true, default: 'open' },
    /** index key: assigned_to lower-cased, or 'none' */
    assignee_key: { type: 'string', required: true, default: 'none' },
    /** index key: 'unread' | 'read' */
    unread_key: { type: 'string', required: true, default: 'read' },
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    version: { type: 'number', required: true, default: 0 },
    /** spec §3 custom_properties: property_id -> value (text; shared/property; issue 15) */
    custom_properties: { type: 'any' },
    /** issue 17 §6: the chat's SLA clocks (shared/sla/sla.rules.ts ChatSla), written by the SLA engine */
    sla: { type: 'any' },
  },
  indexes: {
    // chat by id
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['chat_id'] } },
    // chats of an org, newest first (Query desc on gsi1), every folder (exports, rebuilds)
    byRecent: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['org_id'] },
      sk: { field: 'gsi1sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    // the list filters: one per filter, each inside a folder (open = 'All', closed, snoozed, archived), newest first
    byState: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['org_id', 'inbox_state'] },
      sk: { field: 'gsi2sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byAssignee: {
      index: 'gsi3',
      pk: { field: 'gsi3pk', composite: ['org_id', 'inbox_state', 'assignee_key'] },
      sk: { field: 'gsi3sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byUnread: {
      index: 'gsi4',
      pk: { field: 'gsi4pk', composite: ['org_id', 'inbox_state', 'unread_key'] },
      sk: { field: 'gsi4sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byType: {
      index: 'gsi5',
      pk: { field: 'gsi5pk', composite: ['org_id', 'inbox_state', 'chat_type'] },
      sk: { field: 'gsi5sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byPhone: {
      index: 'gsi6',
      pk: { field: 'gsi6pk', composite: ['org_id', 'inbox_state', 'org_phone'] },
      sk: { field: 'gsi6sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    // the combined filter assignee + unread (Mine + Unread, Unassigned + Unread): one Query (issue 14 item 8)
    byAssigneeUnread: {
      index: 'gsi7',
      pk: { field: 'gsi7pk', composite: ['org_id', 'inbox_state', 'assignee_key', 'unread_key'] },
      sk: { field: 'gsi7sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    // group chats only (a sparse index: user chat rows carry no gsi8 keys, so their writes cost
    // nothing more): assignee + unread of the groups, the three-filter case Mine + Unread + Group
    // and its kin in one Query (issue 14 item 8). Groups are the minority of chats, so filtering
    // the assignee + unread index for them read several pages; user chats are the majority, and
    // filtering for them stays cheap. gsi8 is the table's (tickets key it by status + assignee;
    // the composite names keep the two apart).
    byGroupAssigneeUnread: {
      index: 'gsi8',
      condition: (attr: { chat_type?: string }) => attr.chat_type === 'group',
      pk: { field: 'gsi8pk', composite: ['org_id', 'inbox_state', 'chat_type', 'assignee_key', 'unread_key'] },
      sk: { field: 'gsi8sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
  },
});

/**
 * One row per (chat label, chat) in the chat's folder: the label filter's index (a chat has
 * several labels; a GSI key holds one value). Holds a copy of the chat so a page is one Query.
 * Rewritten in every transaction that writes a labelled chat (chatWriteItems). It also carries
 * the chat's assignee and unread keys, so label + assignee and label + unread are one Query each
 * on its own GSIs (issue 14 item 8).
 */
export const ChatLabelLinkEntity = new Entity({
  model: { entity: 'chatLabelLink', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    label_id: { type: 'string', required: true },
    inbox_state: { type: 'string', required: true },
    latest_message_timestamp: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    chat_id: { type: 'string', required: true },
    /** the chat's assignee_key ('none' or the lower-cased email) */
    assignee_key: { type: 'string', required: true, default: 'none' },
    /** the chat's unread_key ('unread' | 'read') */
    unread_key: { type: 'string', required: true, default: 'read' },
    chat: { type: 'any', required: true },
  },
  indexes: {
    byLabel: {
      pk: { field: 'pk', composite: ['org_id', 'label_id', 'inbox_state'] },
      sk: { field: 'sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byLabelAssignee: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['org_id', 'label_id', 'inbox_state', 'assignee_key'] },
      sk: { field: 'gsi1sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byLabelUnread: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['org_id', 'label_id', 'inbox_state', 'unread_key'] },
      sk: { field: 'gsi2sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
  },
});

/**
 * One row per group chat (groups only: a user chat has none): the group filter with the assignee
 * filter, or with the unread filter, in one Query each (issue 14 item 8: Mine + Group, Unread +
 * Group). The chat row's own GSI slots are all taken (gsi1-gsi7 by every chat, gsi8 by the groups'
 * assignee + unread keys), so these two key sets live on this row's gsi1 and gsi2 instead, and only
 * group chat writes pay for them; user chats are most chats, so their combined filters are checked
 * on another index's pages (listChats). Holds a copy of the chat so a page is one Query, like
 * ChatLabelLink. Its table key is the chat's own (org, chat), so it never moves: it is put in every
 * transaction that writes a group chat (chatWriteItems) and deleted only if the chat stops being a group.
 */
export const ChatGroupLinkEntity = new Entity({
  model: { entity: 'chatGroupLink', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    /** always 'group': in the index keys so they read as the filters they serve */
    chat_type: { type: 'string', required: true },
    inbox_state: { type: 'string', required: true },
    latest_message_timestamp: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    /** the chat's assignee_key ('none' or the lower-cased email) */
    assignee_key: { type: 'string', required: true, default: 'none' },
    /** the chat's unread_key ('unread' | 'read') */
    unread_key: { type: 'string', required: true, default: 'read' },
    chat: { type: 'any', required: true },
  },
  indexes: {
    byChat: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['chat_id'] } },
    byGroupAssignee: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['org_id', 'inbox_state', 'chat_type', 'assignee_key'] },
      sk: { field: 'gsi1sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byGroupUnread: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['org_id', 'inbox_state', 'chat_type', 'unread_key'] },
      sk: { field: 'gsi2sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
  },
});

/**
 * Filter counts of an org's chats: one item per bucket (chatBuckets in chat-state.rules.ts),
 * changed with ADD in the same transaction as the chat. Never counted on read.
 */
export const ChatCounterEntity = new Entity({
  model: { entity: 'chatCounter', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    bucket: { type: 'string', required: true },
    n: { type: 'number', default: 0 },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['bucket'] } },
  },
});

/** A member's own state of a chat (data-model.md MemberChatState): pin, 'close for me'. Times epoch ms. */
export const MemberChatStateEntity = new Entity({
  model: { entity: 'memberChatState', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    email: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    pinned_at: { type: 'number' },
    closed_for_me_at: { type: 'number' },
    /** unique_id of the chat's latest message when the member closed it for themselves */
    closed_for_me_message: { type: 'string' },
  },
  indexes: {
    byMember: { pk: { field: 'pk', composite: ['org_id', 'email'] }, sk: { field: 'sk', composite: ['chat_id'] } },
  },
});

/** An org's chat label (spec §2 /settings/labels): name and colour. */
export const ChatLabelEntity = new Entity({
  model: { entity: 'chatLabel', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    label_id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    /** #rrggbb */
    color: { type: 'string', required: true },
    created_by: { type: 'string' },
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['label_id'] } },
  },
});

/**
 * One row per (custom property value, chat) in the chat's folder: the chat-list filter by property
 * value (issue 15 item 4), like ChatLabelLink for labels. Key value: the stored value trimmed
 * (ElectroDB lower-cases keys, so text matches case-insensitively; a dropdown value is its option
 * id). Holds a copy of the chat and the chat's assignee and unread keys, so property, property +
 * assignee and property + unread are one Query each (table, gsi1, gsi2). Written in the chat's
 * own transaction (chatWriteItems) whenever the chat row is written; removed with the value.
 */
export const ChatPropertyLinkEntity = new Entity({
  model: { entity: 'chatPropertyLink', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    property_id: { type: 'string', required: true },
    /** the value as stored on the chat, trimmed (propertyValueKey) */
    value_key: { type: 'string', required: true },
    inbox_state: { type: 'string', required: true },
    latest_message_timestamp: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    chat_id: { type: 'string', required: true },
    assignee_key: { type: 'string', required: true, default: 'none' },
    unread_key: { type: 'string', required: true, default: 'read' },
    chat: { type: 'any', required: true },
  },
  indexes: {
    byValue: {
      pk: { field: 'pk', composite: ['org_id', 'property_id', 'value_key', 'inbox_state'] },
      sk: { field: 'sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byValueAssignee: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['org_id', 'property_id', 'value_key', 'inbox_state', 'assignee_key'] },
      sk: { field: 'gsi1sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    byValueUnread: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['org_id', 'property_id', 'value_key', 'inbox_state', 'unread_key'] },
      sk: { field: 'gsi2sk', composite: ['latest_message_timestamp', 'chat_id'] },
    },
    // every chat carrying a property (or one value of it), whatever its folder: the definition jobs (rename/delete, issue 15 item 4)
    byProperty: {
      index: 'gsi3',
      pk: { field: 'gsi3pk', composite: ['org_id', 'property_id'] },
      sk: { field: 'gsi3sk', composite: ['value_key', 'chat_id'] },
    },
  },
});
