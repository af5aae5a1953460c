import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { db } from '../db/service.ts';
import { notFound } from '../errors.ts';
import { log } from '../log.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { toMessageWire } from '../inbox/wire.ts';
import { getMessageItem, messageKey } from '../message/message.ts';
import { blobPort } from '../ports/blobs.ts';
import { recordMediaItemSafely } from './media-library.ts';
import { videoFrame } from './video-frame.ts';
import type { Actor } from '../auth/actor.ts';
import { phoneAccessToken } from '../phone/phone.ts';
import { downloadMedia, GraphApiError, MediaGoneError, MediaTooLargeError, MediaUrlExpiredError, resolveMedia, type ResolvedMedia } from '../whatsapp/cloud/graph-client.ts';
import { acceptsSniffed, checksumMatches, downloadNameOf, extensionFor, isMediaMessageType, MEDIA_LIMITS, MEDIA_WORDS, mediaKey, THUMBNAIL, thumbnailKey, type MediaMessageType } from './media.rules.ts';
import type { MediaStatus, MediaUrlResponse } from './media.schemas.ts';
import { RETRY, retryOnConflict } from '../db/retry.ts';

/**
 * Inbound media (issue 5, whatsapp-protocols.md A.7): a media message arrives with Meta's media
 * id only; the media-download consumer resolves it, downloads the file, checks it (size limit per
 * type, real type sniffed from the bytes, SHA-256), stores it and, for images, a 120x80 thumbnail
 * through the blob port (videos: a frame through ffmpeg, video-frame.ts), then records the outcome on the message's `media` and publishes
 * `message.updated` so open browsers redraw it.
 */

/** What `media` holds on a message item (ingest writes the first seven; this module the rest). */
export interface StoredMedia {
  media_id?: string | null;
  mimetype?: string | null;
  sha256?: string | null;
  filename?: string | null;
  caption?: string | null;
  voice?: boolean | null;
  animated?: boolean | null;
  /** blob key of the file, once stored */
  path?: string;
  /** blob key of the 120x80 JPEG thumbnail (images) */
  thumbnail?: string;
  /** bytes */
  size?: number;
  status?: MediaStatus;
  /** why it is retrying or failed, in words a person understands */
  error?: string;
  /** download attempts so far */
  attempts?: number;
  /** ours: the phone (phone_id) `media_id` was uploaded for, and when (epoch ms; Meta keeps uploads 30 days) */
  media_phone_id?: string;
  uploaded_at?: number;
  /** ours: a broadcast's file uploaded from the computer ('bup_…'): its Graph media id is shared per number (broadcast-upload.ts) */
  broadcast_upload_id?: string;
}

/** How long a media URL handed to a browser works, seconds (like Meta's own 5-minute URLs). */
export const MEDIA_URL_TTL_S = 300;

export type MediaOutcome = 'stored' | 'failed' | 'skipped';

type Outcome = { status: 'stored'; fields: Pick<StoredMedia, 'path' | 'thumbnail' | 'size' | 'mimetype'> } | { status: 'failed'; error: string };

/**
 * Download, check and store the file of one inbound media message. Idempotent: a message whose
 * file is stored (or that has failed for good) is skipped, so redelivery is harmless.
 * Permanent problems (Meta no longer has the id, too large, wrong checksum, not the type it
 * claims) are recorded as `failed` and not retried. Retryable ones (network, 5xx, rate limits, a
 * download link that expired even after resolving the id again) are recorded as `retrying` and
 * thrown, so the queue tries again; with `finalAttempt` they are recorded as `failed` instead.
 * @param opts.finalAttempt the queue will not deliver this again (its last receive)
 * @returns 'stored', 'failed' or 'skipped' (no such message, not media, already done)
 * @throws the retryable error (GraphApiError) or an infrastructure error (table, blob store)
 */
export async function downloadMessageMedia(orgId: string, chatId: string, uniqueId: string, opts: { finalAttempt?: boolean } = {}): Promise<MediaOutcome> {
  const key = messageKey(orgId, chatId, uniqueId);
  const item = key ? (await db().entities.message.get(key).go()).data : null;
  if (!key || !item || item.from_me || !isMediaMessageType(item.message_type)) return 'skipped';
  const media = item.media as StoredMedia | undefined;
  if (!media?.media_id || media.path || media.status === 'stored' || media.status === 'failed') return 'skipped';
  const type = item.message_type;
  const attempts = (media.attempts ?? 0) + 1;

  let outcome: Outcome;
  try {
    outcome = await fetchAndStore({ org_id: orgId, chat_id: chatId, unique_id: uniqueId, phone_id: item.phone_id }, type, media);
  } catch (e) {
    const retryable = !(e instanceof GraphApiError) || e.retryable;
    if (!retryable) {
      outcome = { status: 'failed', error: `Chorus could not download this file: ${(e as GraphApiError).reason}` };
    } else {
      log('warn', 'media.download_failed', { org_id: orgId, chat_id: chatId, unique_id: uniqueId, attempts, final: Boolean(opts.finalAttempt), error: String((e as Error)?.message ?? e) });
      const status: MediaStatus = opts.finalAttempt ? 'failed' : 'retrying';
      await saveMedia(key, (m) => (m.path ? undefined : { ...m, status, error: opts.finalAttempt ? MEDIA_WORDS.gaveUp(attempts) : MEDIA_WORDS.retrying, attempts }));
      if (opts.finalAttempt) return 'failed';
      throw e;
    }
  }
  if (outcome.status === 'failed') log('info', 'media.refused', { org_id: orgId, chat_id: chatId, unique_id: uniqueId, reason: outcome.error });
  const done = outcome;
  await saveMedia(key, (m) => {
    if (m.path) return undefined; // a concurrent delivery stored it first
    const { error: _e, ...rest } = m;
    return done.status === 'stored' ? { ...rest, ...done.fields, status: 'stored', attempts } : { ...rest, status: 'failed', error: done.error, attempts };
  });
  return done.status;
}

/** Resolve, download (re-resolving once when the link expired), check and store. */
async function fetchAndStore(msg: { org_id: string; chat_id: string; unique_id: string; phone_id: string }, type: MediaMessageType, media: StoredMedia): Promise<Outcome> {
  const limit = MEDIA_LIMITS[type].bytes;
  let resolved: ResolvedMedia;
  let download: { bytes: Uint8Array; contentType: string | null };
  try {
    // the number's own access token (added on /settings/phones), else the global one
    const token = await phoneAccessToken(msg.phone_id);
    resolved = await resolveMedia(media.media_id!, msg.phone_id, token);
    if (resolved.file_size != null && resolved.file_size > limit) return { status: 'failed', error: MEDIA_WORDS.tooLarge(type) };
    try {
      download = await downloadMedia(resolved.url, limit, token);
    } catch (e) {
      if (!(e instanceof MediaUrlExpiredError)) throw e;
      // Meta: "On 404, re-resolve the id" (the URL lives 5 minutes); a second failure is retried later
      resolved = await resolveMedia(media.media_id!, msg.phone_id, token);
      download = await downloadMedia(resolved.url, limit, token);
    }
  } catch (e) {
    if (e instanceof MediaGoneError) return { status: 'failed', error: MEDIA_WORDS.gone };
    if (e instanceof MediaTooLargeError) return { status: 'failed', error: MEDIA_WORDS.tooLarge(type) };
    throw e;
  }
  return checkAndStoreMedia(msg, type, download.bytes, {
    sha256: [resolved.sha256, media.sha256],
    mimetype: resolved.mime_type ?? media.mimetype ?? download.contentType,
    filename: media.filename,
  });
}

/**
 * Check downloaded media bytes and store them with their thumbnail: not empty, within Meta's size
 * limit for the type, matching every sha256 given (hex or base64), the type sniffed from the bytes
 * accepted for the message type; then the file goes to the blob port under the message's key and,
 * for images and videos, a 120x80 JPEG thumbnail beside it. Used for Cloud API and WhatsApp Web
 * downloads alike.
 * @param opts.sha256 expected digests (undefined entries ignored)
 * @param opts.mimetype the type the sender declared, used when sniffing finds none
 * @returns the stored fields, or 'failed' with words a person understands (MEDIA_WORDS)
 */
export async function checkAndStoreMedia(
  key: { org_id: string; chat_id: string; unique_id: string },
  type: MediaMessageType,
  bytes: Uint8Array,
  opts: { sha256: Array<string | null | undefined>; mimetype?: string | null; filename?: string | null },
): Promise<Outcome> {
  if (bytes.byteLength === 0) return { status: 'failed', error: MEDIA_WORDS.empty };
  if (bytes.byteLength > MEDIA_LIMITS[type].bytes) return { status: 'failed', error: MEDIA_WORDS.tooLarge(type) };
  const hash = createHash('sha256').update(bytes).digest();
  const digest = { hex: hash.toString('hex'), base64: hash.toString('base64') };
  for (const expected of opts.sha256) {
    if (expected && !checksumMatches(digest, expected)) return { status: 'failed', error: MEDIA_WORDS.checksum };
  }
  const sniffed = await fileTypeFromBuffer(bytes);
  if (!acceptsSniffed(type, sniffed?.mime)) return { status: 'failed', error: MEDIA_WORDS.mismatch(type, sniffed!.ext) };
  const mimetype = sniffed?.mime ?? opts.mimetype ?? 'application/octet-stream';
  const path = mediaKey(key.org_id, key.chat_id, key.unique_id, opts.filename ?? undefined, sniffed?.ext ?? extensionFor(mimetype));
  const blobs = await blobPort();
  await blobs.put(path, bytes, mimetype);
  let thumbnail: string | undefined;
  if (type === 'image' || type === 'video') {
    const jpeg = await thumbnailOf(type, bytes);
    if (jpeg) {
      thumbnail = thumbnailKey(key.org_id, key.chat_id, key.unique_id);
      await blobs.put(thumbnail, jpeg, 'image/jpeg');
    }
  }
  return { status: 'stored', fields: { path, size: bytes.byteLength, mimetype, ...(thumbnail ? { thumbnail } : {}) } };
}

type Sharp = typeof import('sharp').default;
let sharpModule: Promise<Sharp | undefined> | undefined;

/** sharp, loaded on first use; undefined (thumbnails skipped, logged once) where its binary cannot load. */
function loadSharp(): Promise<Sharp | undefined> {
  sharpModule ??= import('sharp')
    .then((m) => m.default)
    .catch((e: unknown) => {
      log('warn', 'media.thumbnails_unavailable', { error: String((e as Error)?.message ?? e) });
      return undefined;
    });
  return sharpModule;
}

/**
 * The 120x80 JPEG thumbnail of an image, or of a video's frame at ~1 s (the first for shorter
 * clips) grabbed by ffmpeg (video-frame.ts). Never throws.
 * @returns undefined when there is none (undecodable, sharp or ffmpeg missing: the file is still stored)
 */
export async function thumbnailOf(type: 'image' | 'video', bytes: Uint8Array): Promise<Buffer | undefined> {
  if (type === 'image') return makeThumbnail(bytes);
  const frame = await videoFrame(bytes);
  return frame ? makeThumbnail(frame) : undefined;
}

/**
 * A 120x80 JPEG of an image (EXIF orientation applied, cropped to fill; first frame of animated
 * images). Videos go through thumbnailOf (ffmpeg gives the frame, this resizes it).
 * @returns undefined when the image cannot be decoded or sharp is unavailable
 */
export async function makeThumbnail(bytes: Uint8Array): Promise<Buffer | undefined> {
  const sharp = await loadSharp();
  if (!sharp) return undefined;
  try {
    // limitInputPixels: a decompression bomb (tiny file, huge canvas) is refused, not decoded
    return await sharp(bytes, { limitInputPixels: 50_000_000 })
      .rotate()
      .resize(THUMBNAIL.width, THUMBNAIL.height, { fit: 'cover' })
      .jpeg({ quality: 70 })
      .toBuffer();
  } catch (e) {
    log('warn', 'media.thumbnail_failed', { error: String((e as Error)?.message ?? e) });
    return undefined;
  }
}

type MessageKey = NonNullable<ReturnType<typeof messageKey>>;

/**
 * Apply `change` to the message's media (optimistic `version` check, re-read on a race) and
 * publish `message.updated`. `change` returning undefined leaves the message as it is.
 */
async function saveMedia(key: MessageKey, change: (m: StoredMedia) => StoredMedia | undefined): Promise<void> {
  await retryOnConflict(`message ${key.unique_id} (media)`, async () => {
    const msg = (await db().entities.message.get(key).go()).data;
    if (!msg) return;
    const next = change((msg.media as StoredMedia | undefined) ?? {});
    if (!next) return;
    const v = msg.version;
    const ok = await commitWithEvents((e) => ({
      items: [e.message.patch(key).set({ media: next, version: v + 1 }).where(({ version }, { eq }) => eq(version, v)).commit() as TxItem],
      events: [{ name: 'message.updated', properties: { org_id: key.org_id, chat_id: key.chat_id, message: toMessageWire({ ...msg, media: next, version: v + 1 }) }, actor: 'system' }],
    }));
    if (!ok) return RETRY;
    // the media library's row, once the file is kept (an idempotent put keyed by the message)
    if (next.status === 'stored' && next.path) await recordMediaItemSafely({ ...msg, media: next });
  });
}

/**
 * Short-lived URLs of a media message's file and thumbnail for the browser, with its state.
 * The message is looked up in the actor's org only, so another org's message is a 404.
 * @throws AppError 404 message.not_found, media.not_found (the message has no file)
 */
export async function mediaUrl(actor: Actor, chatId: string, uniqueId: string): Promise<MediaUrlResponse> {
  const item = await getMessageItem(actor.org_id, chatId, uniqueId);
  const media = item.media as StoredMedia | undefined;
  // inbound files carry Meta's media id from the start; a member's file has its blob key
  if ((!media?.media_id && !media?.path) || !isMediaMessageType(item.message_type)) throw notFound('media');
  const status: MediaStatus = media.status ?? (media.path ? 'stored' : 'pending');
  const filename = media.filename ?? (media.path ? media.path.slice(media.path.lastIndexOf('/') + 1) : null);
  let url: string | null = null;
  let thumbnailUrl: string | null = null;
  let expiresAt: number | null = null;
  if (media.path) {
    const blobs = await blobPort();
    expiresAt = Date.now() + MEDIA_URL_TTL_S * 1000;
    [url, thumbnailUrl] = await Promise.all([
      // issue 42 §4: every file is a download (attachment), never a page of whatever type it claims
      blobs.url(media.path, { expiresInS: MEDIA_URL_TTL_S, downloadAs: downloadNameOf(media.filename, media.path) }),
      media.thumbnail ? blobs.url(media.thumbnail, { expiresInS: MEDIA_URL_TTL_S, downloadAs: downloadNameOf(null, media.thumbnail) }) : Promise.resolve(null),
    ]);
  }
  return {
    url,
    thumbnail_url: thumbnailUrl,
    mimetype: media.mimetype ?? null,
    filename,
    size: media.size ?? null,
    status,
    error: status === 'stored' ? null : (media.error ?? null),
    expires_at: expiresAt,
  };
}
