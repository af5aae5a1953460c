import { db } from '../db/service.ts';
import { orgCache } from '../org/org-cache.ts';
import { AppError } from '../errors.ts';
import { type Feature } from './catalog.rules.ts';
import { entitlement, hasFeature, type Entitlement, type OrgPlanState, type Use } from './entitlements.rules.ts';

/**
 * Server-side plan and subscription gates (spec §4 Subscription, §9 Plans; issue 42), read from the
 * one entitlement decision (shared/plan/entitlements.rules.ts `entitlement`). The org's plan fields
 * are cached per process for 5 s, so a gate on a hot path (an event consumer, every request) costs
 * no read per event; a billing event forgets the cache in the process that applies it, and the
 * outbound send path reads the row fresh (`{ fresh: true }`), so a canceled org sends nothing after
 * the change whichever Lambda the change reached.
 */
const loadState = async (orgId: string): Promise<OrgPlanState> => ((await db().entities.organization.get({ org_id: orgId }).go()).data ?? {}) as OrgPlanState;
const states = orgCache(loadState);

/** The org's plan state (org_plan, trial, status, licences, add-ons); `{}` when the org is missing. */
export const getOrgPlanState = (orgId: string): Promise<OrgPlanState> => states.get(orgId);

/** Forget cached plan states (after a billing event changes the plan in this process; tests). */
export const forgetOrgPlanState = (orgId?: string): void => states.forget(orgId);

/** Does the org's plan include the feature (spec §9; an expired trial has none of the trial's)? */
export async function orgHasFeature(orgId: string, feature: Feature): Promise<boolean> {
  return hasFeature(await getOrgPlanState(orgId), feature, Date.now());
}

/**
 * The gate's decision for the org now.
 * @param opts.fresh read the org row instead of the 5 s cache (the send path: a state change must
 *   stop sends at once in every process)
 */
export async function orgEntitlement(orgId: string, use: Use, opts: { fresh?: boolean } = {}): Promise<Entitlement> {
  const state = opts.fresh ? await loadState(orgId) : await getOrgPlanState(orgId);
  return entitlement(state, Date.now(), use);
}

/**
 * The API error of a refusal: status 402 (`subscription_ended`, `trial_ended`) or 403
 * (`plan_feature`), its message, and details `[{ field: 'plan', reason: <feature or code>, plan_needed }]`.
 */
export function entitlementError(d: Extract<Entitlement, { allowed: false }>): AppError {
  return new AppError(d.code, d.message, { status: d.status, details: [{ field: 'plan', reason: d.feature ?? d.code, plan_needed: d.plan_needed }] });
}

/**
 * Refuse unless the org may make this use now (entitlements.rules.ts `entitlement`).
 * @throws AppError 402 subscription_ended | trial_ended; 403 plan_feature
 */
export async function requireUse(orgId: string, use: Use, opts: { fresh?: boolean } = {}): Promise<void> {
  const d = await orgEntitlement(orgId, use, opts);
  if (!d.allowed) throw entitlementError(d);
}

/** The refusal messages, in plain words (spec §4 and §9 in the user's terms). */
export { ENTITLEMENT_MESSAGES } from './entitlements.rules.ts';

/**
 * Refuse when the org may not use the feature now: its plan lacks it (403 `plan_feature`), or the
 * subscription or trial has ended (402).
 * @throws AppError 402 subscription_ended | trial_ended; 403 plan_feature with details `[{ field: 'plan', reason: <feature>, plan_needed }]`
 */
export async function requireFeature(orgId: string, feature: Feature): Promise<void> {
  await requireUse(orgId, feature);
}
