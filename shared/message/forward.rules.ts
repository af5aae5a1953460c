import { MEDIA_LIMITS, OUTBOUND_MIME_TYPES, type OutboundMediaType } from '../media/media.rules.ts';
import type { StoredMedia } from '../media/media.ts';

/**
 * What a forwarded copy of a message is (issue 5 'Forward'; spec §5 decides who may forward, see
 * message-actions.rules.ts canForward): text again as text; a media message re-sent from its stored
 * file (the blob stays where it is: files are never rewritten, so the copy points at the same key),
 * with its caption. Meta's media id of our own upload is reused when the copy goes out through the
 * same number and the upload is younger than MEDIA_ID_REUSE_MS (Meta keeps uploads 30 days);
 * otherwise the outbound consumer uploads the stored file again for the target number. An inbound
 * media id is never reused (it names the customer's file, for download only). Pure; times epoch **ms**.
 */

/** Meta keeps an uploaded media id for 30 days; one day of margin for a queued or retried send. */
export const MEDIA_ID_REUSE_MS = 29 * 24 * 3_600_000;

export interface ForwardSource {
  message_type: string;
  body?: string | null;
  from_me: boolean;
  media?: StoredMedia | null;
}

export type ForwardPlan = { kind: 'text'; body: string } | { kind: 'media'; message_type: OutboundMediaType; media: StoredMedia } | { kind: 'refused'; reason: string };

const TYPE_OF: Record<string, OutboundMediaType | undefined> = { image: 'image', video: 'video', audio: 'audio', ptt: 'audio', document: 'document' };

/**
 * The copy of `src` to send to a chat answered by phone `targetPhoneId`.
 * @returns text, media (type to send, media map of the copy), or refused with the reason shown per chat
 */
export function forwardPlan(src: ForwardSource, targetPhoneId: string, now: number): ForwardPlan {
  if (src.message_type === 'text') return src.body?.trim() ? { kind: 'text', body: src.body } : { kind: 'refused', reason: 'This message has no text to forward.' };
  if (src.message_type === 'sticker') return { kind: 'refused', reason: 'Stickers cannot be forwarded.' };
  const type = TYPE_OF[src.message_type];
  if (!type) return { kind: 'refused', reason: 'Only text and media messages can be forwarded.' };
  const m = src.media ?? {};
  if (!m.path || (m.status && m.status !== 'stored')) return { kind: 'refused', reason: 'The file of this message is not stored yet, so it cannot be forwarded.' };
  const mimetype = (m.mimetype ?? '').split(';')[0].trim().toLowerCase();
  if (!OUTBOUND_MIME_TYPES[type].includes(mimetype)) return { kind: 'refused', reason: `WhatsApp cannot send this kind of file${mimetype ? ` (${mimetype})` : ''}.` };
  if (m.size != null && m.size > MEDIA_LIMITS[type].bytes) return { kind: 'refused', reason: `The file is larger than WhatsApp allows (${MEDIA_LIMITS[type].label} for ${MEDIA_LIMITS[type].plural}).` };
  const reuse = src.from_me && !!m.media_id && m.media_phone_id === targetPhoneId && m.uploaded_at != null && now - m.uploaded_at < MEDIA_ID_REUSE_MS;
  const media: StoredMedia = {
    mimetype,
    ...(m.filename ? { filename: m.filename } : {}),
    ...(m.caption ? { caption: m.caption } : {}),
    path: m.path,
    ...(m.thumbnail ? { thumbnail: m.thumbnail } : {}),
    ...(m.size != null ? { size: m.size } : {}),
    status: 'stored',
    ...(reuse ? { media_id: m.media_id, media_phone_id: m.media_phone_id, uploaded_at: m.uploaded_at } : {}),
  };
  return { kind: 'media', message_type: type, media };
}
