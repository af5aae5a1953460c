/**
 * Sending one web push (RFC 8030 over HTTP, payload encrypted per RFC 8291 aes128gcm, VAPID per
 * RFC 8292), through the `web-push` library: it builds the encrypted body and the headers
 * (`generateRequestDetails`); the request is sent with fetch, which speaks both https (every real
 * push service) and the loopback http receivers of the tests.
 */
import { createHash } from 'node:crypto';
import webpush from 'web-push';
import { config } from '../config.ts';
import { vapidKeys } from './vapid.ts';
import type { PushPayload } from './push.schemas.ts';

/** Where and to whom: the stored subscription's endpoint and keys (base64url). */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How long a push service keeps an undelivered push (seconds): a chat push older than a day is noise. */
export const PUSH_TTL_S = 24 * 3600;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * May the server post to this endpoint? Only https to a browser push service
 * (PUSH_ENDPOINT_HOSTS; `*.` matches subdomains), or http/https to loopback when
 * PUSH_ALLOW_LOOPBACK_HTTP=1 (local runtime and tests). Guards against a member registering an
 * endpoint that makes the server post somewhere else (SSRF).
 */
export function endpointAllowed(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  if (config().PUSH_ALLOW_LOOPBACK_HTTP === '1' && LOOPBACK.has(host) && (url.protocol === 'http:' || url.protocol === 'https:')) return true;
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  return config()
    .PUSH_ENDPOINT_HOSTS.split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .some((h) => (h.startsWith('*.') ? host.endsWith(h.slice(1)) : host === h));
}

/** RFC 8030 Topic: at most 32 base64url characters; pushes with one topic replace each other while undelivered. */
export const topicOf = (tag: string): string => createHash('sha256').update(tag).digest('base64url').slice(0, 32);

/**
 * Encrypt `payload` to `target` and post it to its push service.
 * @returns the push service's HTTP status (201 created; 404 / 410 = the subscription is gone)
 * @throws Error for an endpoint that is not allowed (endpointAllowed), or a network failure
 */
export async function sendWebPush(target: PushTarget, payload: PushPayload, opts: { urgency?: 'normal' | 'high' } = {}): Promise<{ status: number }> {
  if (!endpointAllowed(target.endpoint)) throw new Error(`push endpoint not allowed: ${new URL(target.endpoint).host}`);
  const keys = await vapidKeys();
  const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, JSON.stringify(payload), {
    vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
    TTL: PUSH_TTL_S,
    urgency: opts.urgency ?? 'high',
    topic: topicOf(payload.tag),
    contentEncoding: 'aes128gcm',
  });
  const res = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ? new Uint8Array(details.body) : undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer().catch(() => undefined);
  return { status: res.status };
}
