import { z } from 'zod';
import { PageCursor } from '../message/message.schemas.ts';

/**
 * Wire shapes of in-app notifications (browser-safe: imported by the web app and the API).
 * Timestamps are epoch **ms**.
 */
export const Notification = z.object({
  org_id: z.string(),
  /** the recipient */
  email: z.string(),
  notification_id: z.string(),
  /** 'mention' | 'assigned' | 'snooze_woke' | … */
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  chat_id: z.string().nullish(),
  unique_id: z.string().nullish(),
  /** who caused it (member email, or 'system') */
  actor: z.string(),
  created_at: z.number(),
  read_at: z.number().nullish(),
});
export type Notification = z.infer<typeof Notification>;

/** Most unread notifications counted for the bell (the badge shows '99+' long before). */
export const MAX_UNREAD_COUNTED = 1000;

/** Longest id list one POST …/notifications/read takes. */
export const MAX_READ_IDS = 100;

/** GET /api/orgs/{org_id}/notifications: `limit` (1..100, default 30) and an opaque `cursor`. */
export const ListNotificationsQuery = z.object({
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(30),
  cursor: PageCursor.optional(),
});
export type ListNotificationsQuery = z.infer<typeof ListNotificationsQuery>;

/** Answer of GET …/notifications: newest first; `unread_count` is the member's unread total (capped at MAX_UNREAD_COUNTED). */
export const ListNotificationsResponse = z.object({
  notifications: z.array(Notification),
  cursor: z.string().nullable(),
  unread_count: z.number(),
});
export type ListNotificationsResponse = z.infer<typeof ListNotificationsResponse>;

/** POST /api/orgs/{org_id}/notifications/read: `{ ids }` of the caller's notifications, or `{ all: true }`. */
export const MarkNotificationsReadInput = z
  .object({
    ids: z
      .array(z.string({ invalid_type_error: 'must be text' }).regex(/^ntf_[0-9A-HJKMNP-TV-Z]{26}$/, 'must be notification ids'), { invalid_type_error: 'must be a list' })
      .min(1, 'must not be empty')
      .max(MAX_READ_IDS, `must be at most ${MAX_READ_IDS} ids`)
      .optional(),
    all: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.all && !v.ids) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['ids'], message: 'is required unless all is true' });
    if (v.all && v.ids) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['ids'], message: 'must not be sent with all' });
  });
export type MarkNotificationsReadInput = z.infer<typeof MarkNotificationsReadInput>;

/** Answer of POST …/notifications/read: how many changed, and the unread total after. */
export const MarkNotificationsReadResponse = z.object({ updated: z.number(), unread_count: z.number() });
export type MarkNotificationsReadResponse = z.infer<typeof MarkNotificationsReadResponse>;
