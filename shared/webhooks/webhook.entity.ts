import { Entity } from 'electrodb';

/**
 * Outbound webhook endpoint (issue 20 items 4, 5, 7): an org's target URL, the public events it
 * subscribes to (shared/webhooks/webhook.rules.ts) and its Standard Webhooks signing secret.
 * `kind`: 'webhook' (settings/integrations/webhooks), 'zapier' / 'pabbly' (REST hooks made by those
 * services), 'slack' (one per org, endpoint_id 'slack': Slack incoming webhook, Block Kit bodies).
 * Times epoch **ms**. Access: by id and all endpoints of an org (table, pattern 53).
 */
export const WebhookEndpointEntity = new Entity({
  model: { entity: 'webhook_endpoint', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    endpoint_id: { type: 'string', required: true },
    kind: { type: ['webhook', 'zapier', 'pabbly', 'slack'] as const, required: true },
    url: { type: 'string', required: true },
    description: { type: 'string' },
    events: { type: 'list', items: { type: 'string' }, required: true },
    /** `whsec_` + base64 of 32 bytes */
    secret: { type: 'string', required: true },
    /** the secret before the last rotation; still signs until previous_secret_expires_at */
    previous_secret: { type: 'string' },
    previous_secret_expires_at: { type: 'number' },
    enabled: { type: 'boolean', required: true },
    /** why it is disabled: 'manual' | 'failing' */
    disabled_reason: { type: 'string' },
    disabled_at: { type: 'number' },
    /** first failed attempt since the last successful delivery (null: healthy) */
    failing_since: { type: 'number' },
    /** failed attempts in a row */
    failure_streak: { type: 'number', required: true, default: 0 },
    last_success_at: { type: 'number' },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    updated_at: { type: 'number', required: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['endpoint_id'] } },
  },
});

/**
 * One event sent (or to be sent) to one endpoint: the delivery log row (issue 20 item 4).
 * `delivery_id` is the `webhook-id` (deterministic per event and endpoint, time-sortable:
 * webhook.rules.ts deliveryIdFor), so a row is created once per (event, endpoint) with a
 * not-exists condition. `attempts` is claimed with a conditional update before each send, so two
 * workers never send the same attempt. Times epoch **ms**; TTL `expires_at` (epoch s) 90 days.
 * Access: by key; the log of an endpoint newest first (table, pattern 54).
 */
export const WebhookDeliveryEntity = new Entity({
  model: { entity: 'webhook_delivery', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    endpoint_id: { type: 'string', required: true },
    delivery_id: { type: 'string', required: true },
    event_type: { type: 'string', required: true },
    /** the bus event's metadata.id (or `test:<ulid>`, `replay`) */
    event_id: { type: 'string', required: true },
    url: { type: 'string', required: true },
    /** 'pending' (waiting for an attempt) | 'sending' | 'succeeded' | 'failed' (attempts exhausted, or the endpoint is disabled) */
    status: { type: ['pending', 'sending', 'succeeded', 'failed'] as const, required: true },
    attempts: { type: 'number', required: true, default: 0 },
    /** while `sending`: another worker may take the attempt over after this */
    lease_until: { type: 'number' },
    /** the JSON body sent (the same bytes on every attempt and replay) */
    request_body: { type: 'string', required: true },
    response_code: { type: 'number' },
    /** the first 1 KiB of the last response body, or the network error */
    response_excerpt: { type: 'string' },
    latency_ms: { type: 'number' },
    next_attempt_at: { type: 'number' },
    /** per attempt: { attempt, at, response_code, latency_ms, error } (last 10) */
    attempt_log: { type: 'any' },
    created_at: { type: 'number', required: true },
    updated_at: { type: 'number', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byEndpoint: { pk: { field: 'pk', composite: ['org_id', 'endpoint_id'] }, sk: { field: 'sk', composite: ['delivery_id'] } },
  },
});
