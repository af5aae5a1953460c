import { db } from '../../db/service.ts';
import { isConflictError } from '../../db/retry.ts';

/**
 * Leases on WhatsApp Web numbers (whatsapp-protocols.md §B.11): exactly one socket per number, so
 * exactly one worker may hold it. A lease is the session item's `owner` + `lease_until` (epoch ms),
 * taken and renewed only by conditional writes (DynamoDB evaluates the condition and the write
 * atomically), so two workers racing for a number cannot both win. A worker that stops
 * heartbeating loses the number once `lease_until` passes; another worker then takes it.
 */

const isConditional = isConflictError;

/**
 * Take (or keep) the number for `owner` until `now + ttlMs`: succeeds when the number is free,
 * its lease expired, or `owner` already holds it; never while another live worker holds it, nor
 * when the number is not wanted (removed or paused).
 * @returns true when `owner` holds the lease afterwards
 */
export async function acquireLease(phoneId: string, owner: string, now: number, ttlMs: number): Promise<boolean> {
  try {
    await db()
      .entities.waWebSession.patch({ phone_id: phoneId })
      .set({ owner, lease_until: now + ttlMs, heartbeat_at: now })
      .where((a, { notExists, lt, eq }) => `(${notExists(a.owner)} OR ${lt(a.lease_until, now)} OR ${eq(a.owner, owner)}) AND ${eq(a.wanted, true)}`)
      .go();
    return true;
  } catch (e) {
    if (isConditional(e)) return false;
    throw e;
  }
}

/**
 * Heartbeat: extend `owner`'s lease. Fails (false) when another worker took the number meanwhile
 * (our lease had expired) or it is no longer wanted — the caller must then close its socket.
 */
export async function renewLease(phoneId: string, owner: string, now: number, ttlMs: number): Promise<boolean> {
  try {
    await db()
      .entities.waWebSession.patch({ phone_id: phoneId })
      .set({ lease_until: now + ttlMs, heartbeat_at: now })
      .where((a, { eq }) => `${eq(a.owner, owner)} AND ${eq(a.wanted, true)}`)
      .go();
    return true;
  } catch (e) {
    if (isConditional(e)) return false;
    throw e;
  }
}

/** Give the number up (worker stopping): only if `owner` still holds it. */
export async function releaseLease(phoneId: string, owner: string): Promise<void> {
  try {
    await db()
      .entities.waWebSession.patch({ phone_id: phoneId })
      .remove(['owner', 'lease_until'])
      .where((a, { eq }) => eq(a.owner, owner))
      .go();
  } catch (e) {
    if (!isConditional(e)) throw e;
  }
}

/** Every wa_web session row (workers look for numbers to hold). */
export async function listSessions() {
  return (await db().entities.waWebSession.query.all({}).go({ pages: 'all' })).data;
}
