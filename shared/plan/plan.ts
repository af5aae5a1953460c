import { readFile } from 'node:fs/promises';
import { resolveFeatureFlags } from '../org/org-settings.schemas.ts';
import { forgetOrgPlanState } from './gate.ts';
import { db } from '../db/service.ts';
import { config } from '../config.ts';
import { AppError, notFound } from '../errors.ts';
import { log } from '../log.ts';
import type { Actor } from '../auth/actor.ts';
import { DEFAULT_CURRENCY, PLANS, TRIAL, isCurrency } from './catalog.rules.ts';
import {
  allPhonesDisconnected,
  applyBillingEvent,
  broadcastCredits,
  canAddMember,
  canAddPhone,
  effectivePlan,
  licences,
  memberLimit,
  phoneCounter,
  phoneLimit,
  ruleLimit,
  subscriptionStatus,
  type IncidentInfo,
  type OrgPlanState,
} from './entitlements.rules.ts';
import { BillingSignatureError, billingPort } from './billing-port.ts';
import type { CheckoutInput, PlanView, TrialExtensionInput } from './plan.schemas.ts';

const DAY_MS = 86_400_000;

async function orgRow(orgId: string) {
  const org = (await db().entities.organization.get({ org_id: orgId }).go()).data;
  if (!org) throw notFound('organization');
  return org;
}

/** The org's plan state for the entitlement module (shared/plan/entitlements.rules.ts). */
export async function orgPlanState(orgId: string): Promise<OrgPlanState> {
  return (await orgRow(orgId)) as OrgPlanState;
}

export const maintenanceExemptOrgIds = (): string[] =>
  config()
    .MAINTENANCE_EXEMPT_ORG_IDS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Refuse a new phone past the plan's phone limit (spec §9; entitlements `canAddPhone`). Counts every
 * phone row of the org (one query on the org's partition).
 * @throws AppError 403 plan.limit_reached (details: field phones)
 */
export async function assertCanAddPhone(orgId: string): Promise<void> {
  const [org, phones] = await Promise.all([orgPlanState(orgId), db().entities.phone.query.byOrg({ org_id: orgId }).go({ pages: 'all' })]);
  const r = canAddPhone(org, phones.data.length);
  if (!r.ok) throw new AppError('plan.limit_reached', r.message, { status: 403, details: [{ field: 'phones', reason: `plan limit ${r.limit}` }] });
}

/**
 * Refuse a new member (invitation) past the plan's member limit: licences plus user add-ons,
 * counting active and invited members.
 * @throws AppError 403 plan.limit_reached (details: field members)
 */
export async function assertCanAddMember(orgId: string): Promise<void> {
  const [org, members] = await Promise.all([orgPlanState(orgId), db().entities.member.query.byOrg({ org_id: orgId }).go({ pages: 'all' })]);
  const r = canAddMember(org, members.data.length);
  if (!r.ok) throw new AppError('plan.limit_reached', r.message, { status: 403, details: [{ field: 'members', reason: `plan limit ${r.limit}` }] });
}

/**
 * GET /plan (any member: the web app's banners and screens need it): plan, status, limits and usage
 * from the entitlement module; invoices for admins only (from the payment port; [] when it is not
 * configured or unreachable).
 */
export async function getPlanView(actor: Actor): Promise<PlanView> {
  const [org, phones, members] = await Promise.all([
    orgRow(actor.org_id),
    db().entities.phone.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' }),
    db().entities.member.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' }),
  ]);
  const state = org as OrgPlanState;
  const plan = effectivePlan(state);
  const connected = phones.data.filter((p) => p.is_ready !== false).length;
  const pLimit = phoneLimit(state);
  let invoices: PlanView['invoices'] = [];
  if (actor.role === 'admin' && org.billing_customer_id) {
    try {
      invoices = await (await billingPort()).listInvoices(org.billing_customer_id, 24);
    } catch (e) {
      log('warn', 'plan.invoices_unavailable', { org_id: actor.org_id, error: String(e) });
    }
  }
  const flags = (org.access_scopes as OrgPlanState['access_scopes']) ?? null;
  return {
    org_id: actor.org_id,
    plan: { id: plan.id, name: plan.name, rank: plan.rank },
    subscription_status: subscriptionStatus(state),
    is_free_trial: org.is_free_trial === true,
    is_enterprise: org.is_enterprise === true,
    org_plan: org.org_plan?.plan_id ? { plan_id: org.org_plan.plan_id, current_period_end: org.org_plan.current_period_end ?? 0 } : null,
    trial_ends_at: org.trial_ends_at ?? null,
    trial_extension_requested_at: org.trial_extension_requested_at ?? null,
    billing_frequency: org.billing_frequency ?? null,
    currency: isCurrency(org.currency) ? org.currency : DEFAULT_CURRENCY,
    licences: licences(state),
    addons: { phones: org.addons?.phones ?? 0, users: org.addons?.users ?? 0 },
    limits: { phones: pLimit, members: memberLimit(state), broadcast_credits: broadcastCredits(state), rules: ruleLimit(state) },
    usage: { phones: phones.data.length, connected_phones: connected, members: members.data.length },
    phone_counter: phoneCounter(connected, phones.data.length, pLimit).text,
    features: [...plan.features],
    maintenance: flags?.feature_flags?.maintenance === true,
    maintenance_exempt: maintenanceExemptOrgIds().includes(actor.org_id),
    feature_flags: resolveFeatureFlags(flags?.feature_flags as Record<string, unknown> | null | undefined),
    phone_ever_connected: phones.data.some((p) => !!p.first_connected_at),
    all_phones_disconnected: allPhonesDisconnected(phones.data.map((p) => ({ is_ready: p.is_ready ?? false, first_connected_at: p.first_connected_at ?? null }))),
    invoices,
  };
}

/**
 * POST /plan/checkout (admins): a hosted checkout for a Starter or Pro plan through the payment
 * port. Nothing changes on the org here: only the provider's verified `invoice.paid` moves it.
 * @returns the URL to send the browser to
 * @throws AppError 403 plan.forbidden (members); 400 validation (fewer licences than members)
 */
export async function startCheckout(actor: Actor, input: CheckoutInput): Promise<{ url: string }> {
  if (actor.role !== 'admin') throw new AppError('plan.forbidden', 'Only admins can change the plan.', { status: 403 });
  const org = await orgRow(actor.org_id);
  const members = (await db().entities.member.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' })).data.length;
  if (input.licences < members) throw new AppError('validation', `Your workspace has ${members} members: buy at least ${members} licences.`, { details: [{ field: 'licences', reason: `must be at least ${members}` }] });
  const app = config().APP_URL || '';
  const { url } = await (await billingPort()).createCheckout({
    org_id: actor.org_id,
    plan_id: input.plan_id,
    frequency: input.frequency,
    currency: input.currency,
    licences: input.licences,
    addon_phones: PLANS[input.plan_id].addons.phones ? input.addon_phones : 0,
    customer_email: actor.email,
    customer_id: org.billing_customer_id,
    success_url: `${app}/settings/plans?checkout=success`,
    cancel_url: `${app}/settings/plans/select?checkout=canceled`,
  });
  return { url };
}

/**
 * POST /webhooks/billing: verify the provider's signature on the raw body (Stripe
 * `constructEvent`), map the event and apply it through the one state machine
 * (entitlements `applyBillingEvent`). Unknown orgs and event types are acknowledged and ignored.
 * Idempotent: the event id is claimed first (conditional put of a receipt, TTL 30 days; released
 * when applying fails so the provider's retry runs it), so a replay is ignored; an event whose
 * `created` (epoch s) is older than the org's `billing_event_at` (the last applied) is ignored too,
 * checked again in the write's condition.
 * @returns 'applied' | 'ignored'
 * @throws AppError 400 billing.bad_signature
 */
export async function handleBillingWebhook(raw: string, signature: string | undefined): Promise<'applied' | 'ignored'> {
  let verified;
  try {
    verified = (await billingPort()).verifyWebhook(raw, signature);
  } catch (e) {
    if (e instanceof BillingSignatureError) throw new AppError('billing.bad_signature', 'The webhook signature is missing or wrong.', { status: 400 });
    throw e;
  }
  if (!verified) return 'ignored';
  // a replayed event (Stripe retries, a copied request): its id was processed already
  if (!(await claimBillingEvent(verified.id))) {
    log('info', 'billing.duplicate', { org_id: verified.org_id, event_id: verified.id });
    return 'ignored';
  }
  try {
    const org = (await db().entities.organization.get({ org_id: verified.org_id }).go()).data;
    if (!org) {
      log('warn', 'billing.unknown_org', { org_id: verified.org_id, event_id: verified.id });
      return 'ignored';
    }
    // an event older than the last applied one arrives late (Stripe does not order deliveries): ignored
    if (verified.created !== undefined && org.billing_event_at !== undefined && verified.created < org.billing_event_at) {
      log('info', 'billing.stale', { org_id: verified.org_id, event_id: verified.id, created: verified.created, last: org.billing_event_at });
      return 'ignored';
    }
    const patch = applyBillingEvent(subscriptionStatus(org as OrgPlanState), verified.event);
    if (!patch) return 'ignored';
    const created = verified.created;
    // the extra phones replace the phone add-ons only; user add-ons stay as they are
    const { addon_phones, ...rest } = patch;
    const addons = addon_phones !== undefined ? { addons: { ...(org.addons ?? {}), phones: addon_phones } } : {};
    const set = { ...rest, ...addons, ...(verified.customer_id ? { billing_customer_id: verified.customer_id } : {}), ...(created !== undefined ? { billing_event_at: created } : {}) };
    const write = db().entities.organization.patch({ org_id: verified.org_id }).set(set);
    try {
      // the same check, atomic: a newer event applied in between wins
      await (created === undefined ? write : write.where((a, op) => `${op.notExists(a.billing_event_at)} OR ${op.lte(a.billing_event_at, created)}`)).go();
    } catch (e) {
      if (isConditionalFailure(e)) {
        log('info', 'billing.stale', { org_id: verified.org_id, event_id: verified.id, created });
        return 'ignored';
      }
      throw e;
    }
    forgetOrgPlanState(verified.org_id);
    log('info', 'billing.applied', { org_id: verified.org_id, event_id: verified.id, status: patch.subscription_status });
    return 'applied';
  } catch (e) {
    // not processed after all: let the provider's retry run it
    await releaseBillingEvent(verified.id).catch(() => undefined);
    throw e;
  }
}

const isConditionalFailure = (e: unknown): boolean =>
  (e as { cause?: { name?: string } })?.cause?.name === 'ConditionalCheckFailedException' || /conditional request failed/i.test(String((e as Error)?.message ?? e));

/** Processed provider event ids are kept this long (Stripe retries for up to 3 days). */
const BILLING_EVENT_TTL_S = 30 * 24 * 3600;
const BILLING_RECEIPTS = 'billing-webhook';

/**
 * Claim a provider event id (a conditional put of a receipt, TTL 30 days): false when it was
 * processed (or is being processed) already.
 */
async function claimBillingEvent(eventId: string, now = Date.now()): Promise<boolean> {
  try {
    await db()
      .entities.consumerReceipt.create({ consumer: BILLING_RECEIPTS, event_id: eventId, handled_at: now, expires_at: Math.floor(now / 1000) + BILLING_EVENT_TTL_S })
      .go();
    return true;
  } catch (e) {
    if (isConditionalFailure(e)) return false;
    throw e;
  }
}

async function releaseBillingEvent(eventId: string): Promise<void> {
  await db().entities.consumerReceipt.delete({ consumer: BILLING_RECEIPTS, event_id: eventId }).go();
}

/** The 'gtm' notification (spec §7 notify kind 'gtm': org_name, email, org_id, shared_post_link), to GTM_NOTIFY_URL (a Slack incoming webhook) or the log. */
async function notifyGtm(payload: { org_name: string; email: string; org_id: string; shared_post_link: string }): Promise<void> {
  const url = config().GTM_NOTIFY_URL;
  log('info', 'notify.gtm', { kind: 'gtm', ...payload });
  if (!url) return;
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'gtm', text: `Trial extension request from ${payload.org_name} (${payload.org_id}) by ${payload.email}: ${payload.shared_post_link}`, ...payload }), signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`gtm notify answered ${res.status}`);
}

/**
 * POST /plan/trial-extension (any member, while trialing): one request per org (spec §9: one more
 * week; the team checks within 24 hours and grants it with {@link grantTrialExtension}).
 * @throws AppError 409 plan.extension_requested (already asked), 409 plan.not_trialing, 502 plan.notify_failed ('Failed to submit request')
 */
export async function requestTrialExtension(actor: Actor, input: TrialExtensionInput, now = Date.now()): Promise<{ trial_extension_requested_at: number }> {
  const org = await orgRow(actor.org_id);
  if (subscriptionStatus(org as OrgPlanState) !== 'trialing') throw new AppError('plan.not_trialing', 'This workspace is not on a free trial.', { status: 409 });
  if (org.trial_extension_requested_at) throw new AppError('plan.extension_requested', 'A trial extension was already requested for this workspace.', { status: 409 });
  try {
    await db()
      .entities.organization.patch({ org_id: actor.org_id })
      .set({ trial_extension_requested_at: now })
      .where((a, op) => op.notExists(a.trial_extension_requested_at))
      .go();
  } catch {
    throw new AppError('plan.extension_requested', 'A trial extension was already requested for this workspace.', { status: 409 });
  }
  try {
    await notifyGtm({ org_name: org.org_name, email: actor.email, org_id: actor.org_id, shared_post_link: input.shared_post_link });
  } catch (e) {
    // the request must reach the team: undo so the member can try again
    await db().entities.organization.patch({ org_id: actor.org_id }).remove(['trial_extension_requested_at']).go().catch(() => undefined);
    log('error', 'plan.notify_failed', { org_id: actor.org_id, error: String(e) });
    throw new AppError('plan.notify_failed', 'Failed to submit request', { status: 502 });
  }
  return { trial_extension_requested_at: now };
}

/** The team's grant (npm run plan -- extend-trial <org>): one more week (spec §9) from the later of now and the trial end. */
export async function grantTrialExtension(orgId: string, now = Date.now()): Promise<number> {
  const org = await orgRow(orgId);
  const ends = Math.max(now, org.trial_ends_at ?? now) + TRIAL.extensionDays * DAY_MS;
  await db().entities.organization.patch({ org_id: orgId }).set({ trial_ends_at: ends, trial_extended_at: now, subscription_status: 'trialing', is_free_trial: true }).go();
  forgetOrgPlanState(orgId);
  return ends;
}

/**
 * GET /incident (spec §7): `{ betterstack: { id, message, status } | null, featurebase: { id } | null }`,
 * read from INCIDENT_FILE (locally `<dataDir>/incident.json`, written by `npm run incident`) or
 * fetched from INCIDENT_URL (a status endpoint returning the same shape). Nothing configured: no incident.
 */
export async function getIncident(): Promise<IncidentInfo> {
  const none: IncidentInfo = { betterstack: null, featurebase: null };
  const { INCIDENT_FILE: file, INCIDENT_URL: url } = config();
  try {
    const text = file ? await readFile(file, 'utf8').catch(() => '') : url ? await (await fetch(url, { signal: AbortSignal.timeout(4000) })).text() : '';
    if (!text) return none;
    const j = JSON.parse(text) as Partial<IncidentInfo>;
    const bs = j.betterstack;
    return {
      betterstack: bs && typeof bs.id === 'string' && typeof bs.status === 'string' ? { id: bs.id, message: typeof bs.message === 'string' ? bs.message : null, status: bs.status } : null,
      featurebase: j.featurebase && typeof j.featurebase.id === 'string' ? { id: j.featurebase.id } : null,
    };
  } catch (e) {
    log('warn', 'incident.unreadable', { error: String(e) });
    return none;
  }
}
