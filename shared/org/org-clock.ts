import { db } from '../db/service.ts';
import { orgClockOf, type OrgClock } from './business-hours.rules.ts';

/**
 * The org's clock (time zone and business hours, shared/org/business-hours.rules.ts) read by key.
 * Cached per process for 5 s, like the org preferences: a change on settings/general reaches every
 * Lambda within seconds without a GetItem per event.
 */
const cache = new Map<string, { at: number; clock: OrgClock }>();
const TTL_MS = 5_000;

/** The org's clock; the default (UTC, Mon–Fri 09:00–17:00) when the org or its fields are missing. */
export async function getOrgClock(orgId: string): Promise<OrgClock> {
  const hit = cache.get(orgId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.clock;
  const org = (await db().entities.organization.get({ org_id: orgId }).go({ attributes: ['org_id', 'time_zone', 'business_hours'] })).data;
  const clock = orgClockOf(org);
  cache.set(orgId, { at: Date.now(), clock });
  return clock;
}

/** Forget cached clocks (after settings/general changes them in this process; tests). */
export function forgetOrgClock(orgId?: string): void {
  if (orgId) cache.delete(orgId);
  else cache.clear();
}
