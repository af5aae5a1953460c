/**
 * Wire shapes of web push (spec §3 Notification subscription, §7 Notifications; issue 21),
 * browser-safe zod: the web app and the API import them.
 *
 * Routes (spec §7 `private/notifications/…` mapped into this API's org-scoped style, where the
 * org is a path segment instead of spec §7's org_id header):
 *   GET  /api/orgs/{org_id}/notifications/vapid-public-key            -> { public_key }
 *   POST /api/orgs/{org_id}/notifications/subscribe                   SubscribeInput -> { device }
 *   POST /api/orgs/{org_id}/notifications/unsubscribe                 UnsubscribeInput -> { removed }
 *   POST /api/orgs/{org_id}/notifications/unsubscribe-all-for-device  UnsubscribeAllInput -> { removed }
 *   POST /api/orgs/{org_id}/notifications/test                        TestPushInput -> { sent, removed }
 */
import { z } from 'zod';

/** spec §3: device_type is 'mobile' or 'desktop'. */
export const DeviceType = z.enum(['mobile', 'desktop'], { errorMap: () => ({ message: "must be 'mobile' or 'desktop'" }) });
export type DeviceType = z.infer<typeof DeviceType>;

const base64url = z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url').max(200, 'is too long');

/**
 * The device id of a push subscription: the last path segment of its endpoint (spec §7).
 * @returns '' when the endpoint has no path segment (the schema refuses it)
 */
export function deviceIdOf(endpoint: string): string {
  try {
    const parts = new URL(endpoint).pathname.split('/').filter(Boolean);
    return parts.length ? decodeURIComponent(parts[parts.length - 1]!) : '';
  } catch {
    return '';
  }
}

/** A browser PushSubscription as `JSON.stringify(subscription)` gives it (W3C Push API). */
export const PushSubscriptionJson = z.object({
  endpoint: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).url('must be a URL').max(2048, 'is too long'),
  /** epoch ms, or null (most push services never expire) */
  expirationTime: z.number({ invalid_type_error: 'must be a number' }).nullish(),
  keys: z.object({ p256dh: base64url, auth: base64url }, { required_error: 'is required', invalid_type_error: 'must be an object' }),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionJson>;

const deviceId = z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).min(1, 'must not be empty').max(512, 'is too long');
const email = z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).email('must be an email');

/** spec §7 subscribe: email (the caller's own), subscription, device_id (last path segment of the endpoint), device_type. */
export const SubscribeInput = z
  .object({ email, subscription: PushSubscriptionJson, device_id: deviceId, device_type: DeviceType })
  .strict()
  .superRefine((v, ctx) => {
    if (deviceIdOf(v.subscription.endpoint) !== v.device_id) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['device_id'], message: 'must be the last path segment of subscription.endpoint' });
  });
export type SubscribeInput = z.infer<typeof SubscribeInput>;

/** spec §7 unsubscribe: email, device_id, device_type. */
export const UnsubscribeInput = z.object({ email, device_id: deviceId, device_type: DeviceType }).strict();
export type UnsubscribeInput = z.infer<typeof UnsubscribeInput>;

/** spec §7 unsubscribe-all-for-device: device_id (sign-out sends it for every stored organization, spec §4). */
export const UnsubscribeAllInput = z.object({ device_id: deviceId }).strict();
export type UnsubscribeAllInput = z.infer<typeof UnsubscribeAllInput>;

/** POST …/notifications/test: push a test notification to one of the caller's devices. */
export const TestPushInput = z.object({ device_id: deviceId }).strict();
export type TestPushInput = z.infer<typeof TestPushInput>;

/** A registered device as the API shows it (no keys). `created_at` / `updated_at` epoch ms. */
export const PushDevice = z.object({ device_id: z.string(), device_type: DeviceType, created_at: z.number(), updated_at: z.number() });
export type PushDevice = z.infer<typeof PushDevice>;

/** GET …/notifications/vapid-public-key: the application server key (base64url, uncompressed P-256 point). */
export const VapidPublicKeyResponse = z.object({ public_key: z.string() });

/**
 * What the service worker receives in a push (JSON, encrypted per RFC 8291 by web-push).
 * `url` is the in-app path clicking opens (`/chats/{chat_id}`, `/tickets?ticket=…`).
 */
export const PushPayload = z.object({
  kind: z.enum(['new_message', 'mention', 'task_reminder', 'ticket_assigned', 'chat_assigned', 'snooze_woke', 'test']),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  org_id: z.string(),
  chat_id: z.string().nullable(),
  /** collapses repeats (the same event pushed twice shows once) */
  tag: z.string(),
  /** epoch ms */
  sent_at: z.number(),
});
export type PushPayload = z.infer<typeof PushPayload>;

/** Spec §8 wording when the browser blocks notifications. */
export const NOTIFICATIONS_BLOCKED_MESSAGE = 'Notifications Blocked. Enable Notifications from Browser Settings.';
