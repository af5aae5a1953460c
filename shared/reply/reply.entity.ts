import { Entity } from 'electrodb';

/**
 * A quick reply (spec §2 settings/replies; issue 15 item 5): a `/shortcut` and a text with
 * variables, optionally with a file from the media library (a reference to the library item: the
 * chat and message it came from). `scope` 'team' replies are shared (admins write them),
 * 'personal' ones belong to `owner_email` and only their owner sees them. Times epoch ms.
 * At most MAX_REPLIES per org, so an org's replies are one bounded Query (ACCESS_PATTERNS q1).
 */
export const QuickReplyEntity = new Entity({
  model: { entity: 'quick_reply', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** `qr_` + ULID */
    reply_id: { type: 'string', required: true },
    shortcut: { type: 'string', required: true },
    text: { type: 'string', required: true },
    scope: { type: ['team', 'personal'] as const, required: true },
    /** the owner of a personal reply ('' for team replies) */
    owner_email: { type: 'string', required: true },
    /** `{ chat_id, unique_id, message_type, filename, mimetype }` of a library file, or absent */
    attachment: { type: 'any' },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    updated_at: { type: 'number', watch: '*', set: () => Date.now() },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['reply_id'] } },
  },
});
