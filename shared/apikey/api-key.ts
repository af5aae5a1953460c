import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { withCursor } from '../db/paging.ts';
import { monotonicFactory } from 'ulid';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import type { Actor } from '../auth/actor.ts';
import { DEFAULT_RATE_LIMIT, parseToken, takeFromBucket, TOKEN_PREFIX } from './api-key.rules.ts';
import type { ApiKey, ApiRequestLog, CreateApiKeyInput } from './api-key.schemas.ts';

/**
 * API keys of an org (issue 20; admin-only routes, spec §6 'Integrations' is an admin settings
 * group): create (the token shown once), list, revoke; resolve a bearer token to an org-level API
 * actor; the per-key token bucket; the request log (90 days).
 */

const ulid = monotonicFactory();
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Request log rows live 90 days (DynamoDB TTL). */
export const REQUEST_LOG_DAYS = 90;

type Row = {
  key_id: string;
  org_id: string;
  name: string;
  scopes: string[];
  secret_hash: string;
  prefix: string;
  rate_limit: number;
  created_by: string;
  created_at: number;
  last_used_at?: number;
  revoked_at?: number;
  bucket_tokens?: number;
  bucket_at?: number;
};

/** API keys and their logs are admin-only (spec §6: the Integrations settings group is for admins). @throws AppError 403 api_key.forbidden */
export function requireKeyAdmin(actor: Actor): void {
  if (actor.role !== 'admin' || actor.email.startsWith('apikey:')) throw new AppError('api_key.forbidden', 'Only admins can manage API keys.', { status: 403 });
}

const toWire = (r: Row): ApiKey => ({
  key_id: r.key_id,
  name: r.name,
  scopes: r.scopes,
  prefix: r.prefix,
  rate_limit: r.rate_limit,
  created_by: r.created_by,
  created_at: r.created_at,
  last_used_at: r.last_used_at ?? null,
  revoked_at: r.revoked_at ?? null,
});

/**
 * Create a key. @returns the key and its token `chk_<key_id>_<secret>` (shown once; only the
 * sha256 of the secret is stored)
 */
export async function createApiKey(actor: Actor, input: CreateApiKeyInput, now = Date.now()): Promise<{ api_key: ApiKey; token: string }> {
  requireKeyAdmin(actor);
  const key_id = ulid(now);
  const secret = randomBytes(32).toString('base64url');
  const token = `${TOKEN_PREFIX}${key_id}_${secret}`;
  const row: Row = {
    key_id,
    org_id: actor.org_id,
    name: input.name,
    scopes: [...new Set(input.scopes)].sort(),
    secret_hash: sha256(secret),
    prefix: token.slice(0, TOKEN_PREFIX.length + 8),
    rate_limit: input.rate_limit ?? DEFAULT_RATE_LIMIT,
    created_by: actor.email,
    created_at: now,
  };
  await db().entities.apiKey.create(row).go();
  return { api_key: toWire(row), token };
}

/** The org's keys, newest first (gsi1), revoked ones included (marked). Paged by `cursor`. */
export async function listApiKeys(actor: Actor, cursor?: string | null, limit = 100): Promise<{ api_keys: ApiKey[]; cursor: string | null }> {
  requireKeyAdmin(actor);
  const res = await withCursor(cursor, () => db().entities.apiKey.query.byOrg({ org_id: actor.org_id }).go({ order: 'desc', limit, cursor: cursor ?? null, pages: 1 }));
  return { api_keys: (res.data as Row[]).map(toWire), cursor: res.cursor };
}

/** Revoke a key of the actor's org (idempotent). @throws AppError 404 api_key.not_found (also for another org's key) */
export async function revokeApiKey(actor: Actor, keyId: string, now = Date.now()): Promise<ApiKey> {
  requireKeyAdmin(actor);
  const row = (await db().entities.apiKey.get({ key_id: keyId }).go({ consistent: true })).data as Row | null;
  if (!row || row.org_id !== actor.org_id) throw notFound('api_key');
  if (row.revoked_at) return toWire(row);
  const updated = await db().entities.apiKey.patch({ key_id: keyId }).set({ revoked_at: now, revoked_by: actor.email }).go({ response: 'all_new' });
  return toWire(updated.data as Row);
}

/** What a valid token resolves to. */
export interface ApiKeyPrincipal {
  key_id: string;
  org_id: string;
  scopes: string[];
  rate_limit: number;
  name: string;
}

const unauthorized = () => new AppError('auth.invalid_api_key', 'The API key is missing, unknown or revoked.', { status: 401 });

/**
 * Resolve `Authorization: Bearer <token>` (one consistent GetItem by key id; the secret compared by
 * hash in constant time). @throws AppError 401 auth.invalid_api_key (missing, malformed, unknown,
 * wrong secret, revoked)
 */
export async function resolveApiKey(token: string | undefined | null): Promise<ApiKeyPrincipal & { row: Row }> {
  const parsed = parseToken(token);
  if (!parsed) throw unauthorized();
  const row = (await db().entities.apiKey.get({ key_id: parsed.key_id }).go({ consistent: true })).data as Row | null;
  if (!row || row.revoked_at) throw unauthorized();
  const a = Buffer.from(row.secret_hash, 'hex');
  const b = Buffer.from(sha256(parsed.secret), 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw unauthorized();
  return { key_id: row.key_id, org_id: row.org_id, scopes: row.scopes, rate_limit: row.rate_limit, name: row.name, row };
}

/**
 * The org-level actor of a key: role 'admin' for chat visibility (an org-level API actor sees all
 * org chats, like an admin; issue 20), email `apikey:<key_id>` so audit fields name the key.
 * Scopes are enforced by the API middleware and the MCP tools before any domain call.
 */
export function apiActor(p: Pick<ApiKeyPrincipal, 'key_id' | 'org_id'>): Actor {
  return { email: `apikey:${p.key_id}`, user_id: `apikey:${p.key_id}`, org_id: p.org_id, role: 'admin' };
}

/**
 * Take one token from the key's bucket and stamp `last_used_at`, in one conditional update on the
 * bucket's previous time (optimistic; retried on a race).
 * @throws AppError 429 api_key.rate_limited with `details.retry_after_s`
 */
export async function takeToken(p: { key_id: string; rate_limit: number; row: Row }, now = Date.now()): Promise<void> {
  let row: Row | null = p.row;
  for (let attempt = 0; attempt < 5 && row; attempt++) {
    const prev = row.bucket_at != null && row.bucket_tokens != null ? { tokens: row.bucket_tokens, at: row.bucket_at } : null;
    const r = takeFromBucket(prev, p.rate_limit, Math.max(now, prev?.at ?? 0));
    if (!r.ok) {
      throw new AppError('api_key.rate_limited', `Too many requests for this API key; retry after ${r.retryAfterS} s.`, { status: 429, details: { retry_after_s: r.retryAfterS } });
    }
    try {
      const upd = db().entities.apiKey.patch({ key_id: p.key_id }).set({ bucket_tokens: r.bucket.tokens, bucket_at: r.bucket.at, last_used_at: now });
      await (prev ? upd.where((a, op) => op.eq(a.bucket_at, prev.at)) : upd.where((a, op) => op.notExists(a.bucket_at))).go();
      return;
    } catch (e) {
      if ((e as { cause?: { name?: string } }).cause?.name !== 'ConditionalCheckFailedException' && !/conditional/i.test(String(e))) throw e;
      row = (await db().entities.apiKey.get({ key_id: p.key_id }).go({ consistent: true })).data as Row | null;
    }
  }
  throw new AppError('api_key.rate_limited', 'Too many concurrent requests for this API key; retry after 1 s.', { status: 429, details: { retry_after_s: 1 } });
}

/** Log one API request (kept REQUEST_LOG_DAYS days). Never throws (a failed log must not fail the request). */
export async function logApiRequest(entry: Omit<ApiRequestLog, 'log_id'> & { org_id: string }): Promise<void> {
  try {
    await db()
      .entities.apiRequestLog.create({ ...entry, log_id: ulid(entry.at), expires_at: Math.floor(entry.at / 1000) + REQUEST_LOG_DAYS * 86_400 })
      .go();
  } catch {
    // best effort
  }
}

/** The org's API request log, newest first, paged (for /logs). */
export async function listApiRequestLogs(actor: Actor, cursor?: string | null, limit = 50): Promise<{ logs: ApiRequestLog[]; cursor: string | null }> {
  requireKeyAdmin(actor);
  const res = await withCursor(cursor, () => db().entities.apiRequestLog.query.byOrg({ org_id: actor.org_id }).go({ order: 'desc', limit, cursor: cursor ?? null, pages: 1 }));
  return {
    logs: res.data.map((r) => ({ log_id: r.log_id, key_id: r.key_id, route: r.route, method: r.method, path: r.path, status: r.status, latency_ms: r.latency_ms, at: r.at })),
    cursor: res.cursor,
  };
}
