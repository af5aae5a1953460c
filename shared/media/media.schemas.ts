import { z } from 'zod';

/**
 * Wire shapes of inbound media (browser-safe). A media message's `media.status` tells the UI what
 * to draw: absent or `pending` (not downloaded yet), `retrying` (a download failed and will be
 * tried again; `error` says why), `stored` (a file, and for images a 120x80 thumbnail, can be
 * fetched), `failed` (given up; `error` says why in words a person understands).
 */
export const MediaStatus = z.enum(['pending', 'retrying', 'stored', 'failed']);
export type MediaStatus = z.infer<typeof MediaStatus>;

/** GET /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/media */
export const MediaUrlResponse = z.object({
  /** short-lived URL of the file (presigned S3 GET in AWS), null until stored */
  url: z.string().nullable(),
  /** short-lived URL of the 120x80 JPEG thumbnail (images), null when there is none */
  thumbnail_url: z.string().nullable(),
  mimetype: z.string().nullable(),
  filename: z.string().nullable(),
  /** bytes */
  size: z.number().nullable(),
  status: MediaStatus,
  /** why it is retrying or failed */
  error: z.string().nullable(),
  /** epoch ms after which the URLs stop working */
  expires_at: z.number().nullable(),
});
export type MediaUrlResponse = z.infer<typeof MediaUrlResponse>;

/** POST /api/orgs/{org_id}/chats/{chat_id}/uploads: the file a member is about to attach. */
export const CreateUploadInput = z.object({
  filename: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
  mimetype: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(255, 'is too long'),
  /** bytes */
  size: z.number({ required_error: 'is required', invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'is an empty file'),
});
export type CreateUploadInput = z.infer<typeof CreateUploadInput>;

/**
 * Where to PUT the file: `upload_url` (presigned S3 PUT in AWS) with exactly `headers`; the file
 * must be `size` bytes. `key` goes into POST …/messages `{ media: { key, filename, mimetype } }`.
 */
export const CreateUploadResponse = z.object({
  upload_url: z.string(),
  key: z.string(),
  /** headers the PUT must carry (the signature covers them) */
  headers: z.record(z.string()),
  /** epoch ms after which the URL stops working */
  expires_at: z.number(),
});
export type CreateUploadResponse = z.infer<typeof CreateUploadResponse>;
