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

/** Message types the media library and the viewer show (spec §9: image, video, audio, ptt, document). */
export const LIBRARY_MEDIA_TYPES = ['image', 'video', 'audio', 'ptt', 'document'] as const;
export const LibraryMediaType = z.enum(LIBRARY_MEDIA_TYPES, { errorMap: () => ({ message: `must be one of ${LIBRARY_MEDIA_TYPES.join(', ')}` }) });
export type LibraryMediaType = z.infer<typeof LibraryMediaType>;

/** Largest page of GET /media. */
export const MEDIA_LIST_MAX = 200;

/** GET /api/orgs/{org_id}/media?type&chat_id&from&to&limit&cursor (from/to: epoch ms, inclusive). */
export const ListMediaQuery = z
  .object({
    type: LibraryMediaType.optional(),
    chat_id: z.string().trim().min(1, 'must not be empty').max(200, 'is too long').optional(),
    from: z.coerce.number({ invalid_type_error: 'must be epoch ms' }).int('must be epoch ms').min(0, 'must be epoch ms').optional(),
    to: z.coerce.number({ invalid_type_error: 'must be epoch ms' }).int('must be epoch ms').min(0, 'must be epoch ms').optional(),
    limit: z.coerce
      .number({ invalid_type_error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(MEDIA_LIST_MAX, `must be at most ${MEDIA_LIST_MAX}`)
      .default(50),
    cursor: z.string().min(1).max(2000, 'is not a cursor from this list').optional(),
  })
  .refine((v) => v.from === undefined || v.to === undefined || v.from <= v.to, { message: 'must not be after to', path: ['from'] });
export type ListMediaQuery = z.infer<typeof ListMediaQuery>;

/** One file of the media library, with short-lived URLs (5 minutes). */
export const MediaItem = z.object({
  org_id: z.string(),
  chat_id: z.string(),
  chat_name: z.string().nullable(),
  unique_id: z.string(),
  /** epoch ms of the message */
  timestamp: z.number(),
  message_type: LibraryMediaType,
  mimetype: z.string().nullable(),
  filename: z.string().nullable(),
  /** bytes */
  size: z.number().nullable(),
  path: z.string(),
  thumbnail: z.string().nullable(),
  caption: z.string().nullable(),
  from_me: z.boolean(),
  author: z.string().nullable(),
  url: z.string(),
  thumbnail_url: z.string().nullable(),
  /** epoch ms after which the URLs stop working */
  expires_at: z.number(),
});
export type MediaItem = z.infer<typeof MediaItem>;

export const ListMediaResponse = z.object({ items: z.array(MediaItem), cursor: z.string().nullable() });
export type ListMediaResponse = z.infer<typeof ListMediaResponse>;
