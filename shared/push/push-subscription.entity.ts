import { Entity } from 'electrodb';

/**
 * A browser push subscription of one member on one device in one org (spec §3 Notification
 * subscription: email, subscription, device_id, device_type; issue 21). One row per device:
 * subscribing again from the same device replaces the row. `device_id` is the last path segment
 * of the push endpoint (spec §7). `created_at` / `updated_at` are epoch **ms**.
 */
export const PushSubscriptionEntity = new Entity({
  model: { entity: 'pushSubscription', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    email: { type: 'string', required: true, set: (v?: string) => v?.toLowerCase() },
    device_id: { type: 'string', required: true },
    device_type: { type: ['mobile', 'desktop'] as const, required: true },
    endpoint: { type: 'string', required: true },
    /** the subscription's keys (base64url): p256dh is the browser's ECDH P-256 public key, auth its 16-byte secret (RFC 8291) */
    p256dh: { type: 'string', required: true },
    auth: { type: 'string', required: true },
    /** epoch ms, when the push service says the subscription ends */
    expiration_time: { type: 'number' },
    created_at: { type: 'number', required: true },
    updated_at: { type: 'number', required: true },
  },
  indexes: {
    // subscriptions of an org by member (fan-out of one event), and of one member (begins_with email)
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['email', 'device_id'] } },
    // rows of one device in an org, whoever signed in on it (unsubscribe-all-for-device)
    byDevice: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'device_id'] }, sk: { field: 'gsi1sk', composite: ['email'] } },
  },
});
