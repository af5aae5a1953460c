/**
 * Pure rules of API keys (issue 20): scopes, the token format and the token bucket.
 */

/** The areas a key's scopes name (issue 20 brief). */
export const API_AREAS = ['chats', 'messages', 'tickets', 'tasks', 'contacts', 'broadcasts', 'search', 'webhooks'] as const;
export type ApiArea = (typeof API_AREAS)[number];
export type ApiScope = `${ApiArea}:${'read' | 'write'}`;
export const API_SCOPES: ApiScope[] = API_AREAS.flatMap((a) => [`${a}:read`, `${a}:write`] as ApiScope[]);

/** `write` of an area includes its `read`. */
export function hasScope(granted: readonly string[], needed: ApiScope): boolean {
  if (granted.includes(needed)) return true;
  const [area, level] = needed.split(':');
  return level === 'read' && granted.includes(`${area}:write`);
}

/** Token prefix; a token is `chk_<key_id>_<secret>` (key_id: a ULID, secret: 32 random bytes base64url). */
export const TOKEN_PREFIX = 'chk_';

/** Split a bearer token into its key id and secret; null when it is not one of ours. */
export function parseToken(token: string | undefined | null): { key_id: string; secret: string } | null {
  if (!token?.startsWith(TOKEN_PREFIX)) return null;
  const rest = token.slice(TOKEN_PREFIX.length);
  const i = rest.indexOf('_');
  if (i <= 0) return null;
  const key_id = rest.slice(0, i);
  const secret = rest.slice(i + 1);
  if (!/^[0-9A-HJKMNP-TV-Z]{26}$/.test(key_id) || !/^[A-Za-z0-9_-]{20,100}$/.test(secret)) return null;
  return { key_id, secret };
}

/** Default requests per minute of a new key. */
export const DEFAULT_RATE_LIMIT = 600;

export interface Bucket {
  tokens: number;
  /** epoch ms */
  at: number;
}

/**
 * Token bucket (capacity `perMinute`, refilled at perMinute/60 s continuously): take one token at
 * `now` (epoch ms). A missing bucket is full.
 * @returns the new bucket, or `retryAfterS` (whole seconds until one token is back) when empty
 */
export function takeFromBucket(bucket: Bucket | null, perMinute: number, now: number): { ok: true; bucket: Bucket } | { ok: false; retryAfterS: number } {
  const ratePerMs = perMinute / 60_000;
  const start = bucket ?? { tokens: perMinute, at: now };
  const tokens = Math.min(perMinute, start.tokens + Math.max(0, now - start.at) * ratePerMs);
  if (tokens < 1) return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - tokens) / ratePerMs / 1000)) };
  return { ok: true, bucket: { tokens: tokens - 1, at: now } };
}

/**
 * The MCP server's tools (functions/http/mcp/server.ts) -> the scopes each needs (all of them).
 * Here (pure) so the settings page can list them too.
 */
export const MCP_TOOL_SCOPES = {
  list_chats: ['chats:read'],
  read_chat: ['chats:read', 'messages:read'],
  send_message: ['messages:write'],
  assign_chat: ['chats:write'],
  label_chat: ['chats:write'],
  close_chat: ['chats:write'],
  // search finds only what the key's other scopes may read (shared/search-api/search-api.rules.ts)
  search_messages: ['search:read', 'messages:read'],
  search_tickets: ['search:read', 'tickets:read'],
  create_ticket: ['tickets:write'],
  update_ticket: ['tickets:write'],
  create_task: ['tasks:write'],
  list_contacts: ['contacts:read'],
} as const satisfies Record<string, readonly ApiScope[]>;
export type McpToolName = keyof typeof MCP_TOOL_SCOPES;
