import { db } from '../db/service.ts';
import { log } from '../log.ts';

/**
 * Rate-limit signals between the outbound consumer and the broadcast engine (issue 16 part B):
 * Meta answers 130429 (throughput reached) or 131056 (pair rate limit) to a send of the number;
 * the outbound consumer records the time here (one small row per number, TTL 1 hour) and retries the
 * message itself; the engine reads the row about once a second per number and backs off
 * (broadcast.rules.ts rateLimitBackoffMs). `at` epoch **ms**; `expires_at` epoch **seconds**.
 */
export async function notePhoneRateLimited(orgId: string, phoneId: string, code: number, now = Date.now()): Promise<void> {
  try {
    await db().entities.broadcastPhoneLimit.put({ org_id: orgId, phone_id: phoneId, at: now, code, expires_at: Math.floor(now / 1000) + 3600 }).go();
  } catch (e) {
    // a signal only: never fail the send's own error handling for it
    log('warn', 'broadcast.rate_limit_signal_failed', { org_id: orgId, phone_id: phoneId, error: String((e as Error).message) });
  }
}

/** The last rate-limit error of a number (epoch ms), or null. */
export async function lastRateLimitAt(orgId: string, phoneId: string): Promise<number | null> {
  const row = (await db().entities.broadcastPhoneLimit.get({ org_id: orgId, phone_id: phoneId }).go()).data;
  return row?.at ?? null;
}
