import { db } from '../db/service.ts';
import { orgCache } from '../org/org-cache.ts';
import { AppError } from '../errors.ts';
import { FEATURE_LABELS, type Feature } from './catalog.rules.ts';
import { hasFeature, type OrgPlanState } from './entitlements.rules.ts';

/**
 * Server-side plan gates (spec §9: what Starter lacks), read from the one entitlement module
 * (shared/plan/entitlements.rules.ts). The org's plan fields are cached per process for 5 s, so a
 * gate on a hot path (an event consumer) costs no read per event; a plan change reaches every
 * Lambda within seconds.
 */
const states = orgCache(async (orgId): Promise<OrgPlanState> => ((await db().entities.organization.get({ org_id: orgId }).go()).data ?? {}) as OrgPlanState);

/** The org's plan state (org_plan, trial, status, licences, add-ons); `{}` when the org is missing. */
export const getOrgPlanState = (orgId: string): Promise<OrgPlanState> => states.get(orgId);

/** Forget cached plan states (after a billing event changes the plan in this process; tests). */
export const forgetOrgPlanState = (orgId?: string): void => states.forget(orgId);

/** Does the org's plan include the feature (spec §9)? */
export async function orgHasFeature(orgId: string, feature: Feature): Promise<boolean> {
  return hasFeature(await getOrgPlanState(orgId), feature);
}

/** The message of a refused gate: names the feature and where to upgrade. */
export const featureUnavailableMessage = (feature: Feature): string => `${FEATURE_LABELS[feature]} is not included in your plan. Upgrade on Settings › Plans.`;

/**
 * Refuse when the org's plan lacks the feature.
 * @throws AppError 403 `plan.feature_unavailable` with details `[{ field: 'plan', reason: <feature> }]`
 */
export async function requireFeature(orgId: string, feature: Feature): Promise<void> {
  if (await orgHasFeature(orgId, feature)) return;
  throw new AppError('plan.feature_unavailable', featureUnavailableMessage(feature), { status: 403, details: [{ field: 'plan', reason: feature }] });
}
