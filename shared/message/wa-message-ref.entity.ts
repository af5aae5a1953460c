import { Entity } from 'electrodb';

/**
 * Index item "message by WhatsApp id" (wamid) within an org: the inbound dedupe marker and the
 * way a status webhook finds its message. It is also where a status that arrives before its
 * message waits (`status_*`), so nothing is lost whichever comes first: both the status path and
 * the message path upsert this one item and act on what the other left there.
 */
export const WaMessageRefEntity = new Entity({
  model: { entity: 'wa_message_ref', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    message_id: { type: 'string', required: true },
    chat_id: { type: 'string' },
    unique_id: { type: 'string' },
    /** epoch ms, with unique_id the message's sort key */
    timestamp: { type: 'number' },
    /** statuses seen, one attribute each so concurrent webhooks never overwrite one another:
     * { timestamp (epoch s, Meta's unit), errors? } */
    status_sent: { type: 'any' },
    status_delivered: { type: 'any' },
    status_read: { type: 'any' },
    status_played: { type: 'any' },
    status_failed: { type: 'any' },
    /** set when the wamid is a reaction of ours, not a message: { chat_id, unique_id, sender_id } of its Reaction row
     * (statuses then move the reaction's ack, shared/message/reactions.ts) */
    reaction_of: { type: 'any' },
    /** an inbound reaction stored but not yet decided (applied, ignored as older, refused): set in
     * the transaction that stores it, still set while the reaction is parked for its target, removed
     * once applyInboundReaction decided it; a redelivered webhook applies (or parks) it again only
     * while set (shared/inbox/ingest.ts), so a crash between the two steps loses nothing and a
     * redelivery after a newer removal revives nothing */
    reaction_pending: { type: 'boolean' },
    /** epoch s: refs are kept 30 days (Meta retries for 7) */
    expires_at: { type: 'number' },
  },
  indexes: {
    // message by WhatsApp id (dedupe, status routing)
    byWamid: { pk: { field: 'pk', composite: ['org_id', 'message_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
