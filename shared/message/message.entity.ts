import { Entity } from 'electrodb';

/**
 * Message, spec §3. Stored under its chat, sorted by `timestamp` (epoch **ms**) then `unique_id`
 * (a ULID we assign), so a thread reads newest first with one Query.
 * `message_id` is WhatsApp's id (wamid): set on arrival for inbound, once the Graph API accepts
 * the send for outbound (also mirrored in `sent_message_id`).
 * `ack` follows WhatsApp Web's scale: -1 failed, 0 pending, 1 sent, 2 delivered, 3 read, 4 played.
 */
export const MessageEntity = new Entity({
  model: { entity: 'message', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    unique_id: { type: 'string', required: true },
    /** epoch ms */
    timestamp: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    message_id: { type: 'string' },
    sent_message_id: { type: 'string' },
    org_phone: { type: 'string', required: true },
    phone_id: { type: 'string', required: true },
    /** the customer's number (digits) for inbound, our number for outbound */
    sender_phone: { type: 'string' },
    /** display name of who wrote it: the customer's profile name or the member's email */
    author: { type: 'string' },
    body: { type: 'string' },
    from_me: { type: 'boolean', required: true },
    ack: { type: 'number', required: true, default: 0 },
    delivery_info: { type: 'any' },
    /** when ack = -1: { code, title, details, reason } (reason in words a person understands) */
    delivery_error: { type: 'any' },
    /**
     * issue 23 item 4: epoch ms at which a consumer began the Graph call of this outbound message
     * (claimed once; released when Meta answers with an error). Set with no wamid recorded means a
     * process died during the call: the send is not repeated automatically.
     */
    send_started_at: { type: 'number' },
    /** epoch ms at which Chorus found it cannot tell whether WhatsApp took the message ("may not have been sent", Retry) */
    send_uncertain_at: { type: 'number' },
    /** how often a member pressed Retry on this message (event ids of each attempt differ by it) */
    send_retries: { type: 'number' },
    is_deleted: { type: 'boolean', default: false },
    is_private_note: { type: 'boolean', default: false },
    /** private notes: the members @mentioned, [{ email, name }] (name = the text after '@' in body) */
    mentions: { type: 'list', items: { type: 'map', properties: { email: { type: 'string', required: true }, name: { type: 'string', required: true } } } },
    /** spec §3/§4 message flag: true flagged (needs a reply), false answered, absent/null none */
    flag_status: { type: 'boolean' },
    /** { status, flagged_by, flagged_at, responded_by, responded_at } (epoch ms) */
    flag_metadata: { type: 'any' },
    /** epoch ms until which the message is pinned (spec §3 Pinned message expires_at) */
    pinned_until: { type: 'number' },
    /** the last reaction of ours WhatsApp refused: { reaction, reason, at } */
    reaction_error: { type: 'any' },
    /** edits (issue 5, spec §5): the bodies the message had before, oldest first: [{ body, edited_at (epoch ms), edited_by }] */
    edit_history: { type: 'any' },
    /** epoch ms of the last edit (shown as 'edited') */
    edited_at: { type: 'number' },
    /** our own last edit: 'pending' until the number's session confirms it, 'failed' when WhatsApp refused it (reverted) */
    edit_status: { type: ['pending', 'sent', 'failed'] as const },
    /** why our last edit failed: { body (the text that was refused), reason, at } */
    edit_error: { type: 'any' },
    /** delete for everyone (spec §5): epoch ms and who (member email, or 'whatsapp:<number>' for deletes that came from WhatsApp); `body` is kept for the team's audit */
    deleted_at: { type: 'number' },
    deleted_by: { type: 'string' },
    /** our own delete: 'pending' until the number's session confirms it, 'failed' when WhatsApp refused it (undone) */
    delete_status: { type: ['pending', 'sent', 'failed'] as const },
    /** why our last delete failed: { reason, at } */
    delete_error: { type: 'any' },
    /** ticket this message belongs to (spec §3); at most one */
    message_ticket_id: { type: 'string' },
    message_type: { type: 'string', required: true },
    /** the sending browser's id for its optimistic bubble (SendMessageInput.client_id) */
    client_id: { type: 'string' },
    /** { media_id, mimetype, sha256, filename, caption, voice, animated, url } for media types */
    media: { type: 'any' },
    /** type-specific content: location, contacts, interactive, button, reaction, unsupported, referral */
    content: { type: 'any' },
    /** reply quote: { message_id, from, unique_id?, body?, author? } */
    quoted_message: { type: 'any' },
    forwarded: { type: 'string' },
    /** reactions on this message keyed by sender: { [sender_id]: { reaction, timestamp } } */
    reactions: { type: 'any' },
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    version: { type: 'number', required: true, default: 0 },
  },
  indexes: {
    // messages of a chat, newest first (Query desc)
    byChat: {
      pk: { field: 'pk', composite: ['org_id', 'chat_id'] },
      sk: { field: 'sk', composite: ['timestamp', 'unique_id'] },
    },
  },
});
