import { db } from '../db/service.ts';
import { orgClockOf, type OrgClock } from './business-hours.rules.ts';
import { orgCache } from './org-cache.ts';

/**
 * The org's clock (time zone and business hours, shared/org/business-hours.rules.ts) read by key,
 * cached per process for 5 s (org-cache.ts): a change on settings/general reaches every Lambda
 * within seconds without a GetItem per event.
 */
const clocks = orgCache(async (orgId): Promise<OrgClock> => {
  const org = (await db().entities.organization.get({ org_id: orgId }).go({ attributes: ['org_id', 'time_zone', 'business_hours'] })).data;
  return orgClockOf(org);
});

/** The org's clock; the default (UTC, Mon–Fri 09:00–17:00) when the org or its fields are missing. */
export const getOrgClock = (orgId: string): Promise<OrgClock> => clocks.get(orgId);

/** Forget cached clocks (after settings/general changes them in this process; tests). */
export const forgetOrgClock = (orgId?: string): void => clocks.forget(orgId);
