/**
 * The one entitlement module (issue 22): every plan gate and every subscription-lifecycle decision,
 * as pure functions of the organization's plan fields (spec §3 Organization: `org_plan { plan_id,
 * current_period_end (epoch SECONDS) }`, `is_free_trial`, `is_enterprise`, `subscription_status`,
 * `access_scopes.feature_flags.maintenance`; ours: `licences`, `addons`, `trial_ends_at` epoch MS).
 * The API (phone and member limits, GET /plan) and the web app (banners, blocking screens, the plans
 * pages) both call it; the broadcast and rules features read `broadcastCredits` and `ruleLimit`.
 * Browser-safe: no I/O.
 */
import { BROADCAST_CREDITS_PER_LICENCE, FEATURES, FEATURE_LABELS, PLAN_IDS, PLANS, RULES_PER_LICENCE, TRIAL, isPlanId, type Feature, type PlanDef, type PlanId } from './catalog.rules.ts';

/** Subscription states (issue 22); they move only through verified provider events ({@link applyBillingEvent}). */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'ended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** The plan fields of an Organization row that the gates read. */
export interface OrgPlanState {
  org_id?: string;
  org_plan?: { plan_id?: string | null; current_period_end?: number | null } | null;
  is_free_trial?: boolean | null;
  is_enterprise?: boolean | null;
  subscription_status?: string | null;
  /** epoch ms */
  trial_ends_at?: number | null;
  /** paid user licences (seats) */
  licences?: number | null;
  /** extra phones and users bought on top of the plan (spec §9 add-ons) */
  addons?: { phones?: number | null; users?: number | null } | null;
  access_scopes?: { feature_flags?: { maintenance?: boolean | null } | null } | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The status to act on. Rows without one (created before issue 22) read as `trialing` when
 * `is_free_trial` is true and a trial end is recorded, else `active`.
 */
export function subscriptionStatus(org: OrgPlanState): SubscriptionStatus {
  const s = org.subscription_status;
  if (s && (SUBSCRIPTION_STATUSES as readonly string[]).includes(s)) return s as SubscriptionStatus;
  return org.is_free_trial && org.trial_ends_at ? 'trialing' : 'active';
}

/** A trial org (status `trialing`), whether or not its trial has ended: the trial banner and the trial-ended screen. */
export const isTrialOrg = (org: OrgPlanState): boolean => subscriptionStatus(org) === 'trialing';

/**
 * On a running free trial: status `trialing` and `trial_ends_at` (epoch ms) still ahead of `nowMs`
 * (issue 42: an expired trial is no longer a trial; it keeps none of the trial's features). A
 * trialing row without a recorded end counts as running (rows from before issue 22).
 */
export const onTrial = (org: OrgPlanState, nowMs: number = Date.now()): boolean => isTrialOrg(org) && !(typeof org.trial_ends_at === 'number' && org.trial_ends_at > 0 && org.trial_ends_at <= nowMs);

/**
 * The tier whose features apply: the trial's (Pro) while the trial runs, else `org_plan.plan_id`
 * (Starter when unknown). An expired trial is Starter unless a plan was bought (issue 42).
 * @param nowMs epoch ms (the trial end is compared with it)
 */
export function effectivePlanId(org: OrgPlanState, nowMs: number = Date.now()): PlanId {
  if (onTrial(org, nowMs)) return TRIAL.plan_id;
  const id = org.org_plan?.plan_id;
  if (isPlanId(id)) return id;
  return org.is_enterprise ? 'enterprise' : 'starter';
}

export const effectivePlan = (org: OrgPlanState, nowMs: number = Date.now()): PlanDef => PLANS[effectivePlanId(org, nowMs)];

/** Does the org's tier include the feature (spec §9: Starter lacks rule-based ticketing, … custom API/webhooks)? `nowMs` epoch ms. */
export function hasFeature(org: OrgPlanState, feature: Feature, nowMs: number = Date.now()): boolean {
  return effectivePlan(org, nowMs).features.includes(feature);
}

/** Features the tier lacks (for upgrade prompts). */
export const missingFeatures = (planId: PlanId): Feature[] => PLANS.enterprise.features.filter((f) => !PLANS[planId].features.includes(f));

const nonNeg = (n: number | null | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/** Paid licences (users); the plan's included users when none are recorded; the trial's allowance while trialing. */
export function licences(org: OrgPlanState): number {
  if (isTrialOrg(org)) return TRIAL.users;
  return nonNeg(org.licences) || effectivePlan(org).users;
}

/** Most members (active and invited) the org may have: licences plus user add-ons (spec §9). */
export function memberLimit(org: OrgPlanState): number {
  if (isTrialOrg(org)) return TRIAL.users;
  return licences(org) + (effectivePlan(org).addons.users ? nonNeg(org.addons?.users) : 0);
}

/** Most phones the org may connect: the plan's phones plus phone add-ons (spec §9; Starter has none). */
export function phoneLimit(org: OrgPlanState): number {
  if (isTrialOrg(org)) return TRIAL.phones;
  const plan = effectivePlan(org);
  return plan.phones + (plan.addons.phones ? nonNeg(org.addons?.phones) : 0);
}

/** spec §9: 3,000 bulk-message credits per licence per month; none once the subscription or trial has ended (issue 42). `nowMs` epoch ms. */
export const broadcastCredits = (org: OrgPlanState, nowMs: number = Date.now()): number => (endOf(org, nowMs) ? 0 : BROADCAST_CREDITS_PER_LICENCE * licences(org));

/** spec §9: 2 automation rules per licence on Pro and Enterprise; none on Starter (no rules engine). */
export const ruleLimit = (org: OrgPlanState): number => (hasFeature(org, 'rules_engine') ? RULES_PER_LICENCE * licences(org) : 0);

/** spec §9: the phone counter, connected phones over the larger of the phone count and the plan's phone limit. */
export function phoneCounter(connected: number, phoneCount: number, limit: number): { connected: number; limit: number; text: string } {
  const l = Math.max(phoneCount, limit);
  return { connected, limit: l, text: `${connected}/${l}` };
}

/** Limit messages (API 403 `plan.limit_reached`, shown by the web app as is). */
export const PLAN_LIMIT_MESSAGES = {
  phones: (limit: number) => `Your plan allows ${limit} phone${limit === 1 ? '' : 's'}. Remove a phone or add more phones on Settings > Plans and Usage.`,
  members: (limit: number) => `Your plan allows ${limit} team member${limit === 1 ? '' : 's'}. Remove a member or add more users on Settings > Plans and Usage.`,
} as const;

export type LimitCheck = { ok: true } | { ok: false; limit: number; message: string };

/** May one more phone be connected, with `count` connected (any state) already? */
export function canAddPhone(org: OrgPlanState, count: number): LimitCheck {
  const limit = phoneLimit(org);
  return count < limit ? { ok: true } : { ok: false, limit, message: PLAN_LIMIT_MESSAGES.phones(limit) };
}

/** May one more member be invited, with `count` members (active and invited) already? */
export function canAddMember(org: OrgPlanState, count: number): LimitCheck {
  const limit = memberLimit(org);
  return count < limit ? { ok: true } : { ok: false, limit, message: PLAN_LIMIT_MESSAGES.members(limit) };
}

// ---------------------------------------------------------------- lifecycle (spec §4 Subscription)

export type BlockingScreen = 'trial_ended' | 'enterprise_ended' | 'inactive';

/** Is the (expired) trial over? */
export const trialEnded = (org: OrgPlanState, nowMs: number): boolean => isTrialOrg(org) && !!org.trial_ends_at && org.trial_ends_at <= nowMs;

/**
 * Which subscription-ended screen blocks the app (spec §4), or null:
 * - `trial_ended`: trialing and the trial end has passed;
 * - `enterprise_ended`: an enterprise org whose subscription is canceled/ended, or whose
 *   `org_plan.current_period_end` (epoch seconds) has passed;
 * - `inactive`: any other canceled/ended subscription (payment failed).
 */
export function blockingScreen(org: OrgPlanState, nowMs: number): BlockingScreen | null {
  const s = subscriptionStatus(org);
  if (s === 'trialing') return trialEnded(org, nowMs) ? 'trial_ended' : null;
  if (org.is_enterprise) {
    const end = org.org_plan?.current_period_end;
    if (s === 'canceled' || s === 'ended' || (typeof end === 'number' && end > 0 && end * 1000 <= nowMs)) return 'enterprise_ended';
    return null;
  }
  return s === 'canceled' || s === 'ended' ? 'inactive' : null;
}

/**
 * Does the screen cover this path? Inactive blocks every page except settings (spec §4). The trial
 * and enterprise screens block everything but the plans pages, where their button leads (ours: a
 * blocked org must be able to pay).
 */
export function screenBlocksPath(screen: BlockingScreen, path: string): boolean {
  if (screen === 'inactive') return !(path === '/settings' || path.startsWith('/settings/'));
  return !(path === '/settings/plans' || path.startsWith('/settings/plans/'));
}

/** Unpaid (spec §4): the red overdue banner with Go to billing. */
export const showOverdueBanner = (org: OrgPlanState): boolean => subscriptionStatus(org) === 'past_due';

/**
 * spec §4 Trial banner: hours left when under one day, otherwise days rounded up, or
 * 'trial has ended' when inactive. Hours are rounded up too (59 minutes left reads '1 hour').
 * @returns null when the org is not on a trial
 */
export function trialBannerText(org: OrgPlanState, nowMs: number): string | null {
  if (!isTrialOrg(org)) return null;
  const left = (org.trial_ends_at ?? 0) - nowMs;
  if (left <= 0) return 'Your trial has ended';
  if (left < DAY_MS) {
    const h = Math.ceil(left / HOUR_MS);
    return `${h} hour${h === 1 ? '' : 's'} left in your trial`;
  }
  const d = Math.ceil(left / DAY_MS);
  return `${d} day${d === 1 ? '' : 's'} left in your trial`;
}

/** spec §2: Getting Started shows while the org is active and no phone was ever connected. */
export const showGettingStarted = (phones: ReadonlyArray<{ first_connected_at?: number | null }>): boolean => !phones.some((p) => !!p.first_connected_at);

/** spec §2: the banner when every previously connected phone is disconnected (Reconnect phones). */
export const allPhonesDisconnected = (phones: ReadonlyArray<{ is_ready?: boolean | null; first_connected_at?: number | null }>): boolean => {
  const connectedOnce = phones.filter((p) => !!p.first_connected_at);
  return connectedOnce.length > 0 && connectedOnce.every((p) => !p.is_ready);
};

// ---------------------------------------------------------------- the entitlement gate (issue 42)

/**
 * What a request or an automated actor is about to do, as the one gate ({@link entitlement}) sees it:
 * - `read`: look at the org's data (changes nothing, sends nothing);
 * - `write`: act: send to a customer, or change the org's data;
 * - `export`: download the org's data as a file (CSV of contacts, chats, recipients, analytics);
 * - `open`: never refused: paying and the plan pages, signing in, one's own profile and presence,
 *   creating or joining a workspace (a blocked org must be able to pay and sign in), and taking
 *   access away (removing a member, revoking an API key, deleting a webhook);
 * - a plan {@link Feature}: use that feature (spec §9), e.g. `custom_api_webhooks` for API keys,
 *   webhooks, `/v1` and MCP.
 */
export type Use = 'read' | 'write' | 'export' | 'open' | Feature;
/** Every use (the route registry's `use` must be one of them: functions/routes.test.ts). */
export const USES: readonly Use[] = ['read', 'write', 'export', 'open', ...FEATURES];
/** Is `v` a {@link Use}? */
export const isUse = (v: unknown): v is Use => typeof v === 'string' && (USES as readonly string[]).includes(v);

/** Why a use is refused: the subscription ended (canceled/ended, or an enterprise period passed), the free trial ended, or the plan lacks the feature. */
export type RefusalCode = 'subscription_ended' | 'trial_ended' | 'plan_feature';

/** The gate's answer. A refusal carries the HTTP status (402 pay to go on; 403 the plan lacks it), the plan that would allow it and a message in plain words. */
export type Entitlement =
  | { allowed: true }
  | { allowed: false; status: 402 | 403; code: RefusalCode; plan_needed: PlanId; feature: Feature | null; message: string };

/**
 * Has the org's service ended, and how (spec §4 Subscription: the trial-ended, enterprise-ended and
 * inactive screens; the same as {@link blockingScreen})? null while it runs (past_due included: the
 * overdue banner only). `nowMs` epoch ms.
 */
export function endOf(org: OrgPlanState, nowMs: number): 'trial_ended' | 'subscription_ended' | null {
  const screen = blockingScreen(org, nowMs);
  if (!screen) return null;
  return screen === 'trial_ended' ? 'trial_ended' : 'subscription_ended';
}

/** The lowest tier that includes the feature (spec §9 ranks). */
export const planWith = (feature: Feature): PlanId => PLAN_IDS.find((id) => PLANS[id].features.includes(feature)) ?? 'enterprise';

/** The plan a reactivation needs: the org's own paid tier (Starter when it had none), Enterprise for an enterprise org. */
function planToRenew(org: OrgPlanState): PlanId {
  const id = org.org_plan?.plan_id;
  if (isPlanId(id)) return id;
  return org.is_enterprise ? 'enterprise' : 'starter';
}

/** The messages of refusals, in plain words (the web app shows them as is; its screens have their own i18n text). */
export const ENTITLEMENT_MESSAGES = {
  trial_ended: 'Your free trial has ended. Choose a plan on Settings > Plans and Usage to keep using this workspace. Your data is kept and you can still read and export it.',
  subscription_ended: 'Your subscription has ended. Renew it on Settings > Plans and Usage to keep using this workspace. Your data is kept and you can still read and export it.',
  plan_feature: (feature: Feature, plan: PlanId) => `${FEATURE_LABELS[feature]} is not included in your plan. Upgrade to ${PLANS[plan].name} on Settings > Plans and Usage.`,
} as const;

/**
 * The one entitlement decision (issue 42), for every route of the registry (functions/routes.ts
 * `use`), the public API and MCP, and every consumer that acts. Pure: the org's plan fields and the time.
 *
 * Rules:
 * - `open` and `read` are always allowed: reading one's own data stays possible after an end,
 *   nothing is deleted (spec §4: the subscription-ended screens block the app, they do not remove it);
 * - an expired trial (`trial_ends_at` ≤ now) has none of the trial's (Pro's) features and may not
 *   act: 402 `trial_ended`; a canceled or ended subscription, or an enterprise org past
 *   `current_period_end` (epoch s), may not act: 402 `subscription_ended` (spec §4 Subscription);
 *   `past_due` still works (the overdue banner only);
 * - `export`: while the service runs, the tier needs `exports` (spec §9: Starter lacks exports):
 *   403 `plan_feature`; after an end, what the org could export before (the trial's or its plan's
 *   tier) it still may: its data stays its own;
 * - a feature: the service must run (else 402 as above) and the tier include it (spec §9; trial = Pro;
 *   catalog.rules.ts), else 403 `plan_feature` with the lowest plan that has it.
 * @param nowMs epoch ms
 */
export function entitlement(org: OrgPlanState, nowMs: number, use: Use): Entitlement {
  if (use === 'open' || use === 'read') return { allowed: true };
  const end = endOf(org, nowMs);
  if (use === 'export') {
    // after an end: the tier the org had (the trial's when it never paid)
    const had = end === 'trial_ended' || (end && org.is_free_trial && !isPlanId(org.org_plan?.plan_id)) ? TRIAL.plan_id : end ? planToRenew(org) : effectivePlanId(org, nowMs);
    return PLANS[had].features.includes('exports') ? { allowed: true } : refuse('plan_feature', 'exports', planWith('exports'));
  }
  const feature: Feature | null = use === 'write' ? null : use;
  if (end === 'trial_ended') return refuse('trial_ended', feature, feature ? planWith(feature) : 'starter');
  if (end) {
    const renew = planToRenew(org);
    return refuse('subscription_ended', feature, feature && !PLANS[renew].features.includes(feature) ? planWith(feature) : renew);
  }
  if (feature && !hasFeature(org, feature, nowMs)) return refuse('plan_feature', feature, planWith(feature));
  return { allowed: true };
}

function refuse(code: RefusalCode, feature: Feature | null, plan_needed: PlanId): Entitlement {
  const message = code === 'plan_feature' ? ENTITLEMENT_MESSAGES.plan_feature(feature!, plan_needed) : ENTITLEMENT_MESSAGES[code];
  return { allowed: false, status: code === 'plan_feature' ? 403 : 402, code, plan_needed, feature, message };
}

// ---------------------------------------------------------------- maintenance and incidents (spec §4, §7)

/** spec §7 GET /incident: betterstack { id, message, status } and featurebase { id }. */
export interface IncidentInfo {
  betterstack: { id: string; message: string | null; status: string } | null;
  featurebase: { id: string } | null;
}
/** Incident statuses we use: `downtime` blocks (the service-down screen), `degraded` shows the dismissible banner, `resolved` nothing. */
export const INCIDENT_STATUSES = ['degraded', 'downtime', 'resolved'] as const;

/** spec §8 Service down, verbatim. */
export const SERVICE_DOWN_MESSAGE = "Service will be temporarily down. We'll be back with an update shortly";

/**
 * What maintenance shows (spec §4): the maintenance page when the org's feature flag is on, the
 * service-down screen during a downtime incident, the incident banner for another open incident;
 * the two special organizations (`exemptOrgIds`) are never blocked.
 */
export function maintenanceState(org: OrgPlanState, incident: IncidentInfo | null, exemptOrgIds: readonly string[]): { kind: 'maintenance' } | { kind: 'down'; message: string } | { kind: 'banner'; id: string; message: string } | null {
  const exempt = !!org.org_id && exemptOrgIds.includes(org.org_id);
  const bs = incident?.betterstack;
  if (!exempt && org.access_scopes?.feature_flags?.maintenance) return { kind: 'maintenance' };
  if (!exempt && bs?.status === 'downtime') return { kind: 'down', message: bs.message?.trim() || SERVICE_DOWN_MESSAGE };
  if (bs && bs.status !== 'resolved') return { kind: 'banner', id: bs.id, message: bs.message?.trim() || SERVICE_DOWN_MESSAGE };
  return null;
}

// ---------------------------------------------------------------- subscription state machine

/** Verified provider events (Stripe webhooks mapped by shared/plan/billing-stripe.ts). */
export type BillingEvent =
  | {
      type: 'paid';
      plan_id: PlanId;
      current_period_end: number;
      licences?: number;
      /** extra phones paid for (spec §9 add-ons); absent when the provider's metadata does not say (subscriptions from before issue 49) */
      addon_phones?: number;
      frequency?: string;
      currency?: string;
    }
  | { type: 'failed' }
  | { type: 'canceled'; reason: 'payment_failed' | 'other' };

/** The plan fields an event changes. */
export interface BillingPatch {
  subscription_status: SubscriptionStatus;
  is_free_trial?: boolean;
  is_enterprise?: boolean;
  org_plan?: { plan_id: PlanId; current_period_end: number };
  licences?: number;
  /** the extra phones now paid for: replaces `addons.phones` (users add-ons stay) */
  addon_phones?: number;
  billing_frequency?: string;
  currency?: string;
}

/**
 * The one transition function: paid → active (the trial ends, the plan and period end recorded);
 * failed → past_due (the overdue banner) unless already canceled/ended; canceled → `canceled`
 * after failed payments (inactive screen), else `ended`. Events never revive an ended subscription
 * except a new payment.
 */
export function applyBillingEvent(current: SubscriptionStatus, e: BillingEvent): BillingPatch | null {
  switch (e.type) {
    case 'paid':
      return {
        subscription_status: 'active',
        is_free_trial: false,
        is_enterprise: e.plan_id === 'enterprise',
        org_plan: { plan_id: e.plan_id, current_period_end: e.current_period_end },
        ...(e.licences ? { licences: e.licences } : {}),
        // a plan without phone add-ons (Starter) holds none: a downgrade drops them
        ...(e.addon_phones !== undefined ? { addon_phones: PLANS[e.plan_id].addons.phones ? nonNeg(e.addon_phones) : 0 } : {}),
        ...(e.frequency ? { billing_frequency: e.frequency } : {}),
        ...(e.currency ? { currency: e.currency } : {}),
      };
    case 'failed':
      return current === 'canceled' || current === 'ended' ? null : { subscription_status: 'past_due' };
    case 'canceled':
      return { subscription_status: e.reason === 'payment_failed' ? 'canceled' : 'ended' };
  }
}
