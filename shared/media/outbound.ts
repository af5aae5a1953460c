import { fileTypeFromBuffer } from 'file-type';
import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import { log } from '../log.ts';
import { blobPort } from '../ports/blobs.ts';
import type { Actor } from '../auth/actor.ts';
import { isUploadKeyOf, MEDIA_LIMITS, OUTBOUND_WORDS, outboundAcceptsSniffed, outboundTypeFor, thumbnailKey, uploadKey, type OutboundMediaType } from './media.rules.ts';
import { thumbnailOf, type StoredMedia } from './media.ts';
import type { CreateUploadInput, CreateUploadResponse } from './media.schemas.ts';

/**
 * Outbound media (issue 5 "Media out"): a member's browser asks for an upload URL (type and size
 * checked against Meta's send limits), PUTs the file straight to the blob store (presigned S3 PUT),
 * then sends `{ media: { key, … } }`; `prepareOutboundMedia` checks the stored object (it exists,
 * its size and its real type) and makes the thumbnail before the message is stored. The
 * whatsapp-outbound consumer uploads the bytes to the Graph API and sends the media message
 * (shared/inbox/send.ts).
 */

/** How long an upload URL works, seconds: long enough for 100 MB on a slow link. */
export const UPLOAD_URL_TTL_S = 900;

const invalid = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { details: [{ field, reason }] });

/**
 * A presigned PUT for one file of a chat of the actor's org.
 * @throws AppError 404 chat.not_found; 400 validation.failed (mimetype not sendable, size over the type's limit)
 */
export async function createUpload(actor: Actor, chatId: string, input: CreateUploadInput): Promise<CreateUploadResponse> {
  const type = outboundTypeFor(input.mimetype);
  if (!type) throw invalid('mimetype', OUTBOUND_WORDS.unsupported);
  if (input.size > MEDIA_LIMITS[type].bytes) throw invalid('size', OUTBOUND_WORDS.tooLarge(type));
  const chat = (await db().entities.chat.get({ org_id: actor.org_id, chat_id: chatId }).go()).data;
  if (!chat) throw notFound('chat');
  const key = uploadKey(actor.org_id, chatId, ulid(), input.filename);
  const contentType = input.mimetype.split(';')[0].trim().toLowerCase();
  const blobs = await blobPort();
  const expiresAt = Date.now() + UPLOAD_URL_TTL_S * 1000;
  const upload_url = await blobs.uploadUrl(key, contentType, input.size, UPLOAD_URL_TTL_S);
  return { upload_url, key, headers: { 'content-type': contentType }, expires_at: expiresAt };
}

/** What a member's media message stores (on top of the text fields). */
export interface PreparedMedia {
  message_type: OutboundMediaType;
  media: StoredMedia;
}

/** Bytes file-type needs to recognise a format (its own minimum sample). */
const SNIFF_BYTES = 4100;

/**
 * Check an uploaded file before it becomes a message: the key is an upload of this chat, the
 * object exists, is not empty, is within the type's limit and really is what it claims (sniffed
 * from the bytes; a refused file is deleted). Images and videos (a frame, through ffmpeg) get a
 * 120x80 thumbnail under the message's folder.
 * @throws AppError 400 validation.failed with the `media.*` field and the reason
 */
export async function prepareOutboundMedia(
  orgId: string,
  chatId: string,
  uniqueId: string,
  input: { key: string; filename: string; mimetype: string },
  caption: string | undefined,
): Promise<PreparedMedia> {
  if (!outboundTypeFor(input.mimetype)) throw invalid('media.mimetype', OUTBOUND_WORDS.unsupported);
  if (!isUploadKeyOf(orgId, chatId, input.key)) throw invalid('media.key', OUTBOUND_WORDS.notThisChat);
  const file = await inspectUpload(input.key, input.mimetype, { field: 'media', thumbnailKey: thumbnailKey(orgId, chatId, uniqueId), log: { org_id: orgId, chat_id: chatId } });
  return {
    message_type: file.message_type,
    media: {
      mimetype: file.mimetype,
      filename: input.filename,
      ...(caption ? { caption } : {}),
      path: input.key,
      ...(file.thumbnail ? { thumbnail: file.thumbnail } : {}),
      size: file.size,
      status: 'stored',
    },
  };
}

/** What inspectUpload found in an uploaded file. */
export interface InspectedUpload {
  message_type: OutboundMediaType;
  /** the declared type (parameters dropped); for images and video the type sniffed from the bytes */
  mimetype: string;
  /** bytes */
  size: number;
  /** blob key of the 120x80 JPEG thumbnail, when one was made */
  thumbnail?: string;
}

/**
 * The checks of a file a browser PUT to the blob store (the chat composer's and the broadcast's
 * uploads alike): it exists, is not empty, is within Meta's limit for its type and really is what
 * `mimetype` claims (sniffed from the bytes; documents take any file); a refused file is deleted.
 * Images and videos get a 120x80 thumbnail at `opts.thumbnailKey`.
 * @param opts.field the field named in the 400 (`media`, `content.media.upload_id`, …)
 * @throws AppError 400 validation.failed `<field>.mimetype` / `<field>.key` / `<field>` with the reason
 */
export async function inspectUpload(key: string, declaredMimetype: string, opts: { field: string; thumbnailKey: string; log: Record<string, string> }): Promise<InspectedUpload> {
  const type = outboundTypeFor(declaredMimetype);
  if (!type) throw invalid(`${opts.field}.mimetype`, OUTBOUND_WORDS.unsupported);
  const blobs = await blobPort();
  const head = await blobs.head(key);
  if (!head) throw invalid(`${opts.field}.key`, OUTBOUND_WORDS.notUploaded);
  const refuse = async (reason: string) => {
    log('info', 'media.outbound_refused', { ...opts.log, key, reason });
    await blobs.delete(key);
    return new AppError('validation.failed', `The file ${reason}.`, { details: [{ field: opts.field, reason }] });
  };
  if (head.size === 0) throw await refuse(OUTBOUND_WORDS.empty);
  if (head.size > MEDIA_LIMITS[type].bytes) throw await refuse(OUTBOUND_WORDS.tooLarge(type));

  // documents take any file; the rest are read (images fully, for the thumbnail; 5 MB at most)
  let mimetype = declaredMimetype.split(';')[0].trim().toLowerCase();
  let thumbnail: string | undefined;
  if (type !== 'document') {
    const blob = await blobs.get(key);
    if (!blob) throw invalid(`${opts.field}.key`, OUTBOUND_WORDS.notUploaded);
    const sniffed = await fileTypeFromBuffer(type === 'image' ? blob.bytes : blob.bytes.subarray(0, SNIFF_BYTES));
    if (!outboundAcceptsSniffed(type, sniffed?.mime)) throw await refuse(OUTBOUND_WORDS.mismatch(type, sniffed?.ext));
    // what WhatsApp is told must be what the bytes are (a mismatch fails there with 131053)
    if (type === 'image' || type === 'video') mimetype = sniffed!.mime;
    if (type === 'image' || type === 'video') {
      const jpeg = await thumbnailOf(type, blob.bytes);
      if (jpeg) {
        thumbnail = opts.thumbnailKey;
        await blobs.put(thumbnail, jpeg, 'image/jpeg');
      }
    }
  }
  return { message_type: type, mimetype, size: head.size, ...(thumbnail ? { thumbnail } : {}) };
}
