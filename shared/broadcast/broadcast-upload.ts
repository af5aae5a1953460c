import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { log } from '../log.ts';
import { blobPort } from '../ports/blobs.ts';
import { MEDIA_LIMITS, OUTBOUND_WORDS, outboundTypeFor, safeFilename, safeSegment, THUMBNAIL, type OutboundMediaType } from '../media/media.rules.ts';
import { inspectUpload, UPLOAD_URL_TTL_S } from '../media/outbound.ts';
import { MEDIA_ID_REUSE_MS } from '../message/forward.rules.ts';
import type { StoredMedia } from '../media/media.ts';
import type { Actor } from '../auth/actor.ts';
import type { BroadcastUploadResponse, CreateBroadcastUploadInput } from './broadcast.schemas.ts';

/**
 * Files uploaded from a member's computer for a broadcast (issue 16 "Media can be attached"). The
 * same flow as the chat composer's (shared/media/outbound.ts): the browser asks for a presigned PUT
 * (type and size checked against Meta's send limits, media.rules.ts), PUTs the file straight to the
 * blob store, then previews / creates the broadcast with `content.media = { upload_id }`. The first
 * preview or create checks the stored bytes once (inspectUpload: size, sniffed type, thumbnail) and
 * marks the upload ready. The engine sends it to each recipient: on a Cloud API number the outbound
 * consumer uploads the file to the Graph API once per number and that media id is reused for every
 * recipient of that number (kept on the row; Meta keeps an upload 30 days, MEDIA_ID_REUSE_MS);
 * WhatsApp Web numbers read it from the blob store per message like any member's file.
 */

/** How long an upload row (and so its file's id) is kept, seconds: 45 days (a broadcast may be scheduled weeks ahead). */
const UPLOAD_ROW_TTL_S = 45 * 86_400;

const invalid = (field: string, reason: string) => new AppError('validation.failed', `${field}: ${reason}`, { details: [{ field, reason }] });

/** Folder of a broadcast upload: `media/<org_id>/_broadcasts/up-<ulid>` (org-prefixed like every key of the org). */
export function broadcastUploadFolder(orgId: string, uploadId: string): string {
  return ['media', safeSegment(orgId), '_broadcasts', `up-${safeSegment(uploadId.replace(/^bup_/, ''))}`].join('/');
}

export type BroadcastUploadRow = {
  org_id: string;
  upload_id: string;
  status: 'pending' | 'ready';
  path: string;
  filename: string;
  mimetype: string;
  message_type: OutboundMediaType;
  size: number;
  thumbnail?: string;
  graph_ids?: Record<string, { id: string; at: number }>;
};

/**
 * POST /broadcasts/uploads: a presigned PUT for one file of a broadcast. The caller must be allowed
 * to send broadcasts (`assertAccess`, the same check as preview and create).
 * @returns the upload id to attach (`content.media = { upload_id }`) and where to PUT the file
 * @throws AppError 403 broadcast.forbidden; 400 validation.failed `mimetype` (not a type WhatsApp sends) / `size` (over the type's limit)
 */
export async function createBroadcastUpload(actor: Actor, input: CreateBroadcastUploadInput, assertAccess: (a: Actor) => Promise<void>, now = Date.now()): Promise<BroadcastUploadResponse> {
  await assertAccess(actor);
  const type = outboundTypeFor(input.mimetype);
  if (!type) throw invalid('mimetype', OUTBOUND_WORDS.unsupported);
  if (input.size > MEDIA_LIMITS[type].bytes) throw invalid('size', OUTBOUND_WORDS.tooLarge(type));
  const uploadId = `bup_${ulid(now)}`;
  const filename = input.filename.split(/[\\/]/).pop()!.trim() || 'file';
  const path = `${broadcastUploadFolder(actor.org_id, uploadId)}/${safeFilename(filename)}`;
  const contentType = input.mimetype.split(';')[0].trim().toLowerCase();
  await db()
    .entities.broadcastUpload.create({
      org_id: actor.org_id,
      upload_id: uploadId,
      status: 'pending',
      path,
      filename,
      mimetype: contentType,
      message_type: type,
      size: input.size,
      created_by: actor.user_id,
      created_at: now,
      expires_at: Math.floor(now / 1000) + UPLOAD_ROW_TTL_S,
    })
    .go();
  const upload_url = await (await blobPort()).uploadUrl(path, contentType, input.size, UPLOAD_URL_TTL_S);
  return { upload_id: uploadId, upload_url, headers: { 'content-type': contentType }, filename, message_type: type, size: input.size, expires_at: now + UPLOAD_URL_TTL_S * 1000 };
}

/**
 * The upload attached to a broadcast being previewed or created: one of the actor's org (another
 * org's id reads as unknown), its file in the blob store and sendable. The stored bytes are checked
 * once (inspectUpload) and the row marked ready with the checked type, size and thumbnail.
 * @throws AppError 400 validation.failed `content.media.upload_id` (unknown, not uploaded, empty, too large, not what it claims)
 */
export async function checkBroadcastUpload(orgId: string, uploadId: string): Promise<BroadcastUploadRow> {
  const field = 'content.media.upload_id';
  const row = (await db().entities.broadcastUpload.get({ org_id: orgId, upload_id: uploadId }).go({ consistent: true })).data as BroadcastUploadRow | null;
  if (!row) throw invalid(field, 'is not a file uploaded for this workspace (or it has expired); please upload it again');
  if (row.status === 'ready') return row;
  const file = await inspectUpload(row.path, row.mimetype, { field, thumbnailKey: `${broadcastUploadFolder(orgId, uploadId)}/thumbnail/${THUMBNAIL.width}x${THUMBNAIL.height}.jpg`, log: { org_id: orgId, upload_id: uploadId } }).catch((e: unknown) => {
    // inspectUpload names `<field>.key` / `<field>.mimetype`; the member only ever gave the id
    if (e instanceof AppError && e.status === 400) {
      const reason = (e.details as Array<{ reason: string }> | undefined)?.[0]?.reason ?? e.message;
      throw invalid(field, reason === OUTBOUND_WORDS.notUploaded ? reason : `the file ${reason}`);
    }
    throw e;
  });
  const ready = { status: 'ready' as const, mimetype: file.mimetype, message_type: file.message_type, size: file.size, ...(file.thumbnail ? { thumbnail: file.thumbnail } : {}) };
  await db().entities.broadcastUpload.patch({ org_id: orgId, upload_id: uploadId }).set(ready).go();
  return { ...row, ...ready };
}

/** How long the engine's process keeps an upload row it read, ms (a row only changes by gaining media ids). */
const ROW_CACHE_MS = 60_000;
const rowCache = new Map<string, { at: number; row: Promise<BroadcastUploadRow | null> }>();
/** Graph uploads in flight per upload and number, so concurrent sends of one process share one. */
const inflight = new Map<string, Promise<{ id: string; at: number }>>();

/**
 * The upload row (null when gone: expired or never made), read consistently, then kept for a minute
 * by this process (the engine reads it for every recipient; the Graph media ids it gains are
 * written into the cached row too).
 */
export function getBroadcastUpload(orgId: string, uploadId: string): Promise<BroadcastUploadRow | null> {
  const now = Date.now();
  const k = `${orgId}|${uploadId}`;
  const hit = rowCache.get(k);
  if (hit && now - hit.at < ROW_CACHE_MS) return hit.row;
  const row = db()
    .entities.broadcastUpload.get({ org_id: orgId, upload_id: uploadId })
    .go({ consistent: true })
    .then((r) => (r.data as BroadcastUploadRow | null) ?? null);
  rowCache.set(k, { at: now, row });
  row.catch(() => rowCache.delete(k));
  return row;
}

/**
 * What one recipient's message carries for a broadcast's uploaded file (InternalSend.prepared): the
 * stored file, its caption and `broadcast_upload_id`. On a Cloud API number the Graph media id
 * already uploaded for that number (younger than MEDIA_ID_REUSE_MS) is added; otherwise the outbound
 * consumer uploads the file on its send through sharedGraphUpload (the engine holds no WhatsApp token:
 * infra/access.ts hands it to the channel consumers only).
 * @param caption the recipient's filled text ('' for none)
 * @returns the prepared media, or the reason the file cannot be sent (shown on the recipient's row)
 */
export function uploadedMediaFor(
  row: BroadcastUploadRow | null,
  phoneId: string,
  connectionType: 'wa_cloud' | 'wa_web' | undefined,
  caption: string,
  now: number,
): { message_type: OutboundMediaType; media: StoredMedia } | { refused: string } {
  if (!row || row.status !== 'ready') return { refused: 'The broadcast’s file is no longer available (uploads are kept 45 days).' };
  const media: StoredMedia = {
    mimetype: row.mimetype,
    filename: row.filename,
    ...(caption.trim() ? { caption } : {}),
    path: row.path,
    ...(row.thumbnail ? { thumbnail: row.thumbnail } : {}),
    size: row.size,
    status: 'stored',
    broadcast_upload_id: row.upload_id,
  };
  const known = connectionType !== 'wa_web' && phoneId ? row.graph_ids?.[phoneId] : undefined;
  if (known && now - known.at < MEDIA_ID_REUSE_MS) Object.assign(media, { media_id: known.id, media_phone_id: phoneId, uploaded_at: known.at });
  return { message_type: row.message_type, media };
}

/**
 * Meta's media id of a broadcast's uploaded file for one Cloud API number, for the outbound consumer
 * (shared/inbox/send.ts graphMediaRef): the id already kept on the upload row for that number (younger
 * than MEDIA_ID_REUSE_MS), else `upload()` is called and its id kept on the row, so the recipients of
 * one number share one upload. Concurrent sends of one process share one upload in flight; sends in
 * two processes at the same moment may both upload (both ids work for 30 days; the row keeps one).
 * @throws the upload's GraphApiError (the consumer retries or fails the message as for any file)
 */
export async function sharedGraphUpload(orgId: string, uploadId: string, phoneId: string, upload: () => Promise<{ id: string }>, now = Date.now()): Promise<{ id: string }> {
  const k = `${orgId}|${uploadId}|${phoneId}`;
  let p = inflight.get(k);
  if (!p) {
    inflight.set(
      k,
      (p = (async () => {
        const row = (await db().entities.broadcastUpload.get({ org_id: orgId, upload_id: uploadId }).go({ consistent: true })).data as BroadcastUploadRow | null;
        const known = row?.graph_ids?.[phoneId];
        if (known && now - known.at < MEDIA_ID_REUSE_MS) return known;
        const { id } = await upload();
        const entry = { id, at: now };
        if (row) {
          await db()
            .entities.broadcastUpload.patch({ org_id: orgId, upload_id: uploadId })
            .set({ graph_ids: { ...row.graph_ids, [phoneId]: entry } })
            .go()
            .catch((e: unknown) => log('warn', 'broadcast.media_id_not_kept', { org_id: orgId, upload_id: uploadId, phone_id: phoneId, error: String((e as Error)?.message ?? e) }));
          rowCache.delete(`${orgId}|${uploadId}`);
        }
        return entry;
      })()),
    );
    void p.finally(() => inflight.delete(k)).catch(() => undefined);
  }
  return { id: (await p).id };
}
