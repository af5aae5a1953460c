import { db } from '../../db/service.ts';
import { commitWithEvents, type TxItem } from '../../db/transaction.ts';
import { toMessageWire } from '../../inbox/wire.ts';
import { checkAndStoreMedia, type StoredMedia } from '../../media/media.ts';
import { recordMediaItemSafely } from '../../media/media-library.ts';
import { isMediaMessageType, MEDIA_WORDS, type MediaMessageType } from '../../media/media.rules.ts';
import { MediaTooLargeError } from '../cloud/graph-client.ts';
import { log } from '../../log.ts';
import type { WaWebPhone } from './ingest-web.ts';
import { RETRY, retryOnConflict } from '../../db/retry.ts';

/**
 * Files of WhatsApp Web messages. A Cloud API message carries a Graph media id that the
 * media-download consumer resolves; a WhatsApp Web message carries the encrypted file's location and
 * key instead, which only a session can download (Baileys `downloadMediaMessage`, with a re-upload
 * request for old media). So the session worker downloads right after storing the message and hands
 * the bytes here: the same checks as Cloud media (size limit per type, type sniffed from the bytes,
 * SHA-256 against Baileys' `fileSha256`), the same blob keys and 120x80 thumbnails (shared/media),
 * then the message's `media` is updated and `message.updated` published.
 */
export type WaWebMediaOutcome = 'stored' | 'failed' | 'skipped';

export const DOWNLOAD_FAILED = 'Chorus could not download this file from WhatsApp (it may no longer be on WhatsApp’s servers).';

/**
 * Download (through `download`) and keep the file of the stored message `messageId`.
 * @param download the session's download of this message's file
 * @returns 'skipped' when the message is unknown, not media or already has its file
 * @throws infrastructure errors (table, blob store); a failed download is recorded as `failed`
 */
export async function storeWaWebMedia(phone: WaWebPhone, messageId: string, download: () => Promise<Uint8Array>): Promise<WaWebMediaOutcome> {
  const ref = (await db().entities.waMessageRef.get({ org_id: phone.org_id, message_id: messageId }).go()).data;
  if (!ref?.chat_id || !ref.unique_id || ref.timestamp == null) return 'skipped';
  const key = { org_id: phone.org_id, chat_id: ref.chat_id, timestamp: ref.timestamp, unique_id: ref.unique_id };
  const msg = (await db().entities.message.get(key).go()).data;
  if (!msg || !isMediaMessageType(msg.message_type)) return 'skipped';
  const media = (msg.media as StoredMedia | undefined) ?? {};
  if (media.path || media.status === 'stored') return 'skipped';
  const type: MediaMessageType = msg.message_type;

  let next: StoredMedia;
  try {
    const bytes = await download();
    next = await check(key, type, media, bytes);
  } catch (e) {
    log('warn', 'wa_web.media_download_failed', { phone_id: phone.phone_id, message_id: messageId, error: String((e as Error)?.message ?? e) });
    next = { ...media, status: 'failed', error: e instanceof MediaTooLargeError ? MEDIA_WORDS.tooLarge(type) : DOWNLOAD_FAILED };
  }
  return retryOnConflict(`message ${key.unique_id} (media)`, async () => {
    const current = (await db().entities.message.get(key).go()).data;
    if (!current) return 'skipped' as const;
    const v = current.version;
    const ok = await commitWithEvents((e) => ({
      items: [e.message.patch(key).set({ media: next, version: v + 1 }).where(({ version }, { eq }) => eq(version, v)).commit() as TxItem],
      events: [{ name: 'message.updated', properties: { org_id: key.org_id, chat_id: key.chat_id, message: toMessageWire({ ...current, media: next, version: v + 1 }) }, actor: 'system' }],
    }));
    if (!ok) return RETRY;
    if (next.status === 'stored') await recordMediaItemSafely({ ...current, media: next });
    return next.status === 'stored' ? ('stored' as const) : ('failed' as const);
  });
}

/** The same checks and storing as Cloud API downloads (shared/media/media.ts checkAndStoreMedia). */
async function check(key: { org_id: string; chat_id: string; unique_id: string }, type: MediaMessageType, media: StoredMedia, bytes: Uint8Array): Promise<StoredMedia> {
  const { error: _e, ...rest } = media;
  const out = await checkAndStoreMedia(key, type, bytes, { sha256: [media.sha256], mimetype: media.mimetype, filename: media.filename });
  return out.status === 'stored' ? { ...rest, ...out.fields, status: 'stored', attempts: 1 } : { ...rest, status: 'failed', error: out.error };
}
