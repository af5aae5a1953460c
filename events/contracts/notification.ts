import { z } from 'zod';

/**
 * Contracts of the notification events. The snapshot is the API's Notification wire shape
 * (shared/notification/notification.schemas.ts); only the fields consumers rely on are required.
 * Realtime fan-out sends a notification only to its recipient's connections.
 */
export const NotificationSnapshot = z
  .object({
    notification_id: z.string(),
    kind: z.string(),
    title: z.string(),
    body: z.string(),
    /** epoch ms */
    created_at: z.number(),
  })
  .passthrough();

/** notification.created v1: an in-app notification was stored for member `email` (the recipient). */
export const NotificationCreatedV1 = z.object({ org_id: z.string(), email: z.string(), notification: NotificationSnapshot });
