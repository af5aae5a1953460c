import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent, request } from 'undici';
import { Webhook } from 'standardwebhooks';
import { endpointUrlProblem, forbiddenAddress, type UrlPolicy } from './url.rules.ts';

/**
 * Sends one signed webhook request (Standard Webhooks v1, https://www.standardwebhooks.com/):
 * headers `webhook-id`, `webhook-timestamp` (epoch **s**, real time), `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per secret, space-separated: during a
 * rotation both the new and the previous secret sign). Signed by the official `standardwebhooks`
 * library.
 *
 * SSRF guard at send time: the URL is checked again (url.rules.ts), then the host is resolved by
 * the connection's own `lookup`, every resolved address is checked, and the socket connects to
 * the checked address (undici Agent `connect.lookup`), so a DNS answer cannot swap in an internal
 * address between the check and the connection (no second resolution). Redirects are not followed
 * (a 3xx is a failed attempt). Timeout 15 s.
 */
export interface SendInput {
  url: string;
  deliveryId: string;
  body: string;
  /** secrets that sign (the current one first) */
  secrets: string[];
  policy: UrlPolicy;
}

export interface SendResult {
  /** HTTP status, or 0 when no response came (network error, timeout, refused address) */
  status: number;
  latencyMs: number;
  /** the response body's first 1 KiB, or the error in words */
  excerpt: string;
}

export class ForbiddenAddressError extends Error {}

const TIMEOUT_MS = 15_000;
const agents = new Map<boolean, Agent>();

type Resolver = (hostname: string, options: { all: true; family: number }, cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A dns.lookup replacement that refuses forbidden addresses (policy), used by the connection
 * itself: the socket connects to the address this returns, which is the one checked.
 * Refuses the whole answer when any resolved address is forbidden. `resolve` is injectable for tests.
 */
export function guardedLookup(policy: UrlPolicy, resolve: Resolver = dnsLookup as unknown as Resolver) {
  return (hostname: string, options: { family?: number; all?: boolean }, cb: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    resolve(hostname, { all: true, family: options?.family ?? 0 }, (err, addresses) => {
      if (err) return cb(err, '');
      const bad = addresses.find((a) => forbiddenAddress(a.address, policy));
      if (bad || !addresses.length) return cb(new ForbiddenAddressError(`${hostname} resolves to a ${bad ? forbiddenAddress(bad.address, policy) : 'missing'} address (${bad?.address ?? 'none'}), which is not allowed`), '');
      if (options?.all) return cb(null, addresses);
      cb(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function agentFor(policy: UrlPolicy): Agent {
  let a = agents.get(policy.allowLoopback);
  if (!a) {
    a = new Agent({ connect: { lookup: guardedLookup(policy) as never, timeout: TIMEOUT_MS }, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS, keepAliveTimeout: 4_000 });
    agents.set(policy.allowLoopback, a);
  }
  return a;
}

/** The Standard Webhooks headers of a body (exported for tests and the bench). */
export function signedHeaders(deliveryId: string, body: string, secrets: string[], at = new Date()): Record<string, string> {
  const ts = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(ts.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(deliveryId, ts, body)).join(' '),
  };
}

/** POST the signed body. Never throws: failures are a SendResult with status 0. */
export async function sendWebhook(input: SendInput): Promise<SendResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const problem = endpointUrlProblem(input.url, input.policy);
  if (problem) return { status: 0, latencyMs: 0, excerpt: `refused: the URL ${problem}` };
  try {
    const res = await request(input.url, {
      method: 'POST',
      dispatcher: agentFor(input.policy),
      headers: { 'content-type': 'application/json', 'user-agent': 'Chorus-Webhooks/1.0', ...signedHeaders(input.deliveryId, input.body, input.secrets) },
      body: input.body,
      maxRedirections: 0,
    });
    let excerpt = '';
    for await (const chunk of res.body) {
      if (excerpt.length < 1024) excerpt += Buffer.from(chunk as Buffer).toString('utf8');
    }
    return { status: res.statusCode, latencyMs: took(), excerpt: excerpt.slice(0, 1024) };
  } catch (e) {
    const err = e as Error & { cause?: Error };
    const forbidden = err instanceof ForbiddenAddressError || err.cause instanceof ForbiddenAddressError;
    return { status: 0, latencyMs: took(), excerpt: `${forbidden ? 'refused' : 'network error'}: ${String(err.cause?.message ?? err.message).slice(0, 500)}` };
  }
}
