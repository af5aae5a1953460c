import { Entity } from 'electrodb';

/**
 * An org's API key (issue 20, spec §6: admins manage them on /settings/integrations/api). The secret
 * is never stored: `secret_hash` is the sha256 (hex) of the random secret part of the token
 * `chk_<key_id>_<secret>`, shown once at creation. The row also carries the key's token bucket
 * (`bucket_tokens` at `bucket_at`, epoch ms), written by one conditional update per request together
 * with `last_used_at` (shared/apikey/api-key.ts `takeToken`).
 * Access: by key_id (GetItem, consistent, on every API request: pattern 53); an org's keys newest
 * first (gsi1, pattern 54).
 */
export const ApiKeyEntity = new Entity({
  model: { entity: 'api_key', version: '1', service: 'chorus' },
  attributes: {
    key_id: { type: 'string', required: true },
    org_id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    /** e.g. ['chats:read', 'messages:write'] (API_SCOPES) */
    scopes: { type: 'list', items: { type: 'string' }, required: true },
    /** sha256 hex of the secret */
    secret_hash: { type: 'string', required: true },
    /** the token's first characters, shown in the list ('chk_01J…') */
    prefix: { type: 'string', required: true },
    /** requests per minute (bucket size; refills continuously) */
    rate_limit: { type: 'number', required: true },
    created_by: { type: 'string', required: true },
    /** epoch ms */
    created_at: { type: 'number', required: true },
    /** epoch ms, null until first use */
    last_used_at: { type: 'number' },
    /** epoch ms; a revoked key answers 401 */
    revoked_at: { type: 'number' },
    revoked_by: { type: 'string' },
    bucket_tokens: { type: 'number' },
    /** epoch ms of the bucket's last refill; the optimistic check of takeToken */
    bucket_at: { type: 'number' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['key_id'] }, sk: { field: 'sk', composite: [] } },
    byOrg: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id'] }, sk: { field: 'gsi1sk', composite: ['key_id'] } },
  },
});

/**
 * One public API request (issue 20: 'every API request is logged for /logs'): route key, status,
 * latency (ms) and the key. Newest first per org by `log_id` (ULID of the time, pattern 55).
 * TTL `expires_at` (epoch **s**) 90 days after the request.
 */
export const ApiRequestLogEntity = new Entity({
  model: { entity: 'api_request_log', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    log_id: { type: 'string', required: true },
    key_id: { type: 'string', required: true },
    /** API Gateway route key, e.g. 'GET /v1/orgs/{org_id}/chats' or 'POST /mcp' */
    route: { type: 'string', required: true },
    method: { type: 'string', required: true },
    path: { type: 'string', required: true },
    status: { type: 'number', required: true },
    latency_ms: { type: 'number', required: true },
    /** epoch ms */
    at: { type: 'number', required: true },
    /** DynamoDB TTL, epoch s */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['log_id'] } },
  },
});
