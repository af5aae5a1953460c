import { Entity } from 'electrodb';

/**
 * Reaction, spec §3 ('Reaction: message_id, reaction, sender_id, unique_id, ack, chat_id, org_id,
 * org_phone, reaction_id, timestamp, read'). One row per (message, sender): keyed by the reacted
 * message (`org_id + chat_id + unique_id`) with `sender_id` as sort key, so a message's reactions
 * are one Query (ACCESS_PATTERNS.md 47) and a sender has at most one reaction per message (a new
 * one overwrites the row, a removal deletes it; WhatsApp's own rule).
 *
 * Written in the same transaction as the message's `reactions` map, which stays as a denormalised
 * summary so the thread (pattern 9) draws the chips without a second read per message; these rows
 * answer 'who reacted' page by page (GET …/messages/{unique_id}/reactions) and carry the ack of
 * ours as the status webhooks move it.
 */
export const ReactionEntity = new Entity({
  model: { entity: 'reaction', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    /** the reacted message's unique_id (its ULID) */
    unique_id: { type: 'string', required: true },
    /** who reacted: the customer's number (digits) or, for ours, the chat's number (org_phone) */
    sender_id: { type: 'string', required: true },
    /** the reacted message's WhatsApp id (wamid) */
    message_id: { type: 'string' },
    /** the emoji */
    reaction: { type: 'string', required: true },
    /** the reaction's own wamid: inbound, the reaction message's id; ours, once the Graph API accepts it */
    reaction_id: { type: 'string' },
    /** the number of ours the chat is on */
    org_phone: { type: 'string', required: true },
    /** ours: the member who reacted (email) */
    by: { type: 'string' },
    /** customer's profile name when it reacted */
    sender_name: { type: 'string' },
    from_me: { type: 'boolean', required: true },
    /** ours: -1 failed, 0 pending, 1 sent, 2 delivered, 3 read (status webhooks); inbound: 0 */
    ack: { type: 'number', required: true, default: 0 },
    /** epoch ms of the reaction */
    timestamp: { type: 'number', required: true },
    /** inbound: seen by the team (spec §3 `read`) */
    read: { type: 'boolean', default: false },
  },
  indexes: {
    // reactions of one message; one row per sender
    byMessage: {
      pk: { field: 'pk', composite: ['org_id', 'chat_id', 'unique_id'] },
      sk: { field: 'sk', composite: ['sender_id'] },
    },
  },
});
