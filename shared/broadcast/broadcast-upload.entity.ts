import { Entity } from 'electrodb';

/**
 * A file a member uploaded from their computer for a broadcast (issue 16 "Media can be attached").
 * `upload_id` = 'bup_' + ULID; the bytes live in the blob store at `path`
 * (`media/<org_id>/_broadcasts/up-<ulid>/<safe filename>`, shared/media/media.rules.ts
 * broadcastUploadKey), PUT there by the browser through a presigned URL.
 * `status`: 'pending' until the first preview/create checks the stored bytes (size, sniffed type,
 * thumbnail), then 'ready' with the checked `mimetype` / `size` / `thumbnail`.
 * `graph_ids` holds, per Cloud API phone (`phone_id`), Meta's media id of this file and when it was
 * uploaded (`{ [phone_id]: { id, at } }`, epoch ms): the outbound consumer uploads once per number and every recipient of it reuses the id.
 * Times epoch **ms**; `expires_at` is the table's TTL, epoch **seconds** (45 days: a broadcast
 * scheduled a month ahead still finds its file).
 */
export const BroadcastUploadEntity = new Entity({
  model: { entity: 'broadcastUpload', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    upload_id: { type: 'string', required: true },
    status: { type: ['pending', 'ready'] as const, required: true, default: 'pending' },
    /** blob key of the file */
    path: { type: 'string', required: true },
    filename: { type: 'string', required: true },
    /** declared at upload; after the check, the sniffed type for images and video */
    mimetype: { type: 'string', required: true },
    /** image, video, audio or document (media.rules.ts outboundTypeFor) */
    message_type: { type: ['image', 'video', 'audio', 'document'] as const, required: true },
    /** bytes: declared at upload, measured at the check */
    size: { type: 'number', required: true },
    /** blob key of the 120x80 JPEG thumbnail (images; videos when ffmpeg is available) */
    thumbnail: { type: 'string' },
    /** { [phone_id]: { id: Meta media id, at: epoch ms of the upload } } */
    graph_ids: { type: 'any' },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['upload_id'] } },
  },
});
