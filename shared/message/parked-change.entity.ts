import { Entity } from 'electrodb';

/**
 * A change that arrived before the message it targets (issue 23 item 2: "reactions and edits
 * before their target"), kept under the target's WhatsApp id until that message is stored, then
 * replayed and deleted (shared/inbox/parked.ts). One item per target wamid:
 * - `reactions`: sender phone → { emoji (null = removed), timestamp (epoch ms), reaction_id, chat_id, sender_name }
 *   (the newest per sender);
 * - `edit`: the newest edit { body, at_ms, chat_id, from } (WhatsApp Web);
 * - `delete`: a delete for everyone { at_ms, chat_id, from } (WhatsApp Web).
 * `version` guards the read-modify-write. Kept 7 days (Meta retries a webhook for 7 days).
 */
export const ParkedChangeEntity = new Entity({
  model: { entity: 'parked_change', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** the target message's WhatsApp id */
    message_id: { type: 'string', required: true },
    reactions: { type: 'any' },
    edit: { type: 'any' },
    delete: { type: 'any' },
    version: { type: 'number', required: true },
    /** epoch s (TTL) */
    expires_at: { type: 'number' },
  },
  indexes: {
    byTarget: { pk: { field: 'pk', composite: ['org_id', 'message_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
