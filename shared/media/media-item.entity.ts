import { Entity } from 'electrodb';

/**
 * MediaItem (issue 5 "Media viewer"): one row per stored media message, so the org's media
 * library (/media) and a chat's viewer carousel are one Query each, newest first, instead of a
 * walk over every message. Written once the file is stored (inbound: media-download consumer;
 * outbound: when the member's message is stored) with an idempotent put keyed by the message.
 * `timestamp` is the message's (epoch **ms**); `unique_id` its ULID, so keys never collide.
 */
export const MediaItemEntity = new Entity({
  model: { entity: 'mediaItem', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    /** the chat's name when the file was stored (null for chats without one) */
    chat_name: { type: 'string' },
    unique_id: { type: 'string', required: true },
    /** epoch ms */
    timestamp: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    /** image, video, audio, ptt or document */
    message_type: { type: 'string', required: true },
    mimetype: { type: 'string' },
    filename: { type: 'string' },
    /** bytes */
    size: { type: 'number' },
    /** blob key of the file */
    path: { type: 'string', required: true },
    /** blob key of the 120x80 JPEG thumbnail (images; videos when ffmpeg is available) */
    thumbnail: { type: 'string' },
    caption: { type: 'string' },
    from_me: { type: 'boolean', required: true },
    /** the customer's profile name or the member's email */
    author: { type: 'string' },
    /** epoch s (TTL): the message's time + the org's library retention (settings/library), when set */
    expires_at: { type: 'number' },
  },
  indexes: {
    // media of an org, newest first (date range = between on the sort key)
    byOrg: {
      pk: { field: 'pk', composite: ['org_id'] },
      sk: { field: 'sk', composite: ['timestamp', 'unique_id'] },
    },
    // media of an org with one message type, newest first
    byType: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['org_id', 'message_type'] },
      sk: { field: 'gsi1sk', composite: ['timestamp', 'unique_id'] },
    },
    // media of one chat, newest first (the viewer's carousel)
    byChat: {
      index: 'gsi2',
      pk: { field: 'gsi2pk', composite: ['org_id', 'chat_id'] },
      sk: { field: 'gsi2sk', composite: ['timestamp', 'unique_id'] },
    },
  },
});
