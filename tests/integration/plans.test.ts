import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { signStripePayload, stripeShapedEvent } from '../../shared/plan/billing-local.ts';
import { db } from '../../shared/db/service.ts';
import { ADDON_PRICES, PLANS, TRIAL } from '../../shared/plan/catalog.rules.ts';
import type { PlanView } from '../../shared/plan/plan.schemas.ts';

/**
 * Plans and the subscription lifecycle through the API (issue 22): the plan view, the phone and
 * member limits from the entitlement module, billing webhooks verified with Stripe's signature
 * scheme (signed by the library's generateTestHeaderString), the local checkout, the one trial
 * extension request and GET /incident.
 */
let rt: TestRuntime;
let admin: string;
let member: string;

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
}, 180_000);
afterAll(async () => rt?.cleanup());

const plan = async (token: string) => rt.orgCall<PlanView>(token, 'GET', '/plan');
const postBilling = (payload: string, signature: string | null) =>
  fetch(`${rt.url}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body: payload });
const signed = (kind: 'paid' | 'failed' | 'canceled', o: Parameters<typeof stripeShapedEvent>[1]) => {
  const ev = stripeShapedEvent(kind, o);
  return postBilling(ev.payload, signStripePayload(ev.payload, rt.env.STRIPE_WEBHOOK_SECRET ?? process.env.STRIPE_WEBHOOK_SECRET!));
};

describe('plan view', () => {
  it('the demo org starts on the trial (Pro features, trial allowance); any member may read it, invoices only for admins', async () => {
    const a = await plan(admin);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ subscription_status: 'trialing', is_free_trial: true, plan: { id: 'pro', rank: 2 }, limits: { phones: TRIAL.phones, members: TRIAL.users, broadcast_credits: 3000 * TRIAL.users, rules: 2 * TRIAL.users } });
    expect(a.body.trial_ends_at).toBeGreaterThan(Date.now());
    expect(a.body.phone_counter).toBe(`1/${TRIAL.phones}`);
    expect(a.body.features).toContain('rules_engine');
    const m = await plan(member);
    expect(m.status).toBe(200);
    expect(m.body.invoices).toEqual([]);
  });
});

describe('phone limit', () => {
  it('connecting past the plan limit is refused with the limit in the message', async () => {
    const numbers = ['+91 98111 22201', '+91 98111 22202', '+91 98111 22203', '+91 98111 22204'];
    const statuses: number[] = [];
    let last: { error?: { code: string; message: string } } = {};
    for (const phone of numbers) {
      const r = await rt.orgCall<{ error?: { code: string; message: string } }>(admin, 'POST', '/phones/wa-web', { phone });
      statuses.push(r.status);
      last = r.body;
    }
    // one phone already (the demo number): TRIAL.phones - 1 more fit
    expect(statuses.filter((s) => s === 201)).toHaveLength(TRIAL.phones - 1);
    expect(statuses.at(-1)).toBe(403);
    expect(last.error).toMatchObject({ code: 'plan.limit_reached', message: `Your plan allows ${TRIAL.phones} phones. Remove a phone or add more phones on Settings > Plans and Usage.` });
  });
});

describe('trial extension (spec §9: one more week, one request)', () => {
  it('empty link is a 400; the first request is recorded; a second is refused', async () => {
    expect((await rt.orgCall(member, 'POST', '/plan/trial-extension', { shared_post_link: '' })).status).toBe(400);
    const ok = await rt.orgCall<{ trial_extension_requested_at: number }>(member, 'POST', '/plan/trial-extension', { shared_post_link: 'https://www.linkedin.com/posts/chorus-123' });
    expect(ok.status).toBe(201);
    expect((await plan(admin)).body.trial_extension_requested_at).toBe(ok.body.trial_extension_requested_at);
    expect((await rt.orgCall(admin, 'POST', '/plan/trial-extension', { shared_post_link: 'https://x.com/p/1' })).status).toBe(409);
  });
});

describe('billing webhooks: only verified provider events move the subscription', () => {
  it('a wrong or missing signature is refused and changes nothing', async () => {
    const ev = stripeShapedEvent('paid', { org_id: rt.orgId, plan_id: 'starter', licences: 2 });
    expect((await postBilling(ev.payload, null)).status).toBe(400);
    expect((await postBilling(ev.payload, signStripePayload(ev.payload, 'whsec_wrong'))).status).toBe(400);
    const tampered = ev.payload.replace('"starter"', '"pro"');
    expect((await postBilling(tampered, signStripePayload(ev.payload, rt.env.STRIPE_WEBHOOK_SECRET ?? process.env.STRIPE_WEBHOOK_SECRET!))).status).toBe(400);
    expect((await plan(admin)).body.subscription_status).toBe('trialing');
  });

  it('paid → active on the plan: Starter lacks the rules engine and allows its licences as members', async () => {
    const end = Math.floor(Date.now() / 1000) + 30 * 86400;
    expect((await signed('paid', { org_id: rt.orgId, plan_id: 'starter', licences: 2, period_end: end })).status).toBe(200);
    const p = (await plan(admin)).body;
    expect(p).toMatchObject({ subscription_status: 'active', is_free_trial: false, plan: { id: 'starter' }, org_plan: { plan_id: 'starter', current_period_end: end }, licences: 2, limits: { members: 2, rules: 0, broadcast_credits: 6000 } });
    expect(p.features).not.toContain('rules_engine');
    // admin + member = 2 members: the next invitation is past the limit
    const r = await rt.orgCall<{ error: { code: string; message: string } }>(admin, 'POST', '/team/invites', { email: 'third@plans.chorus', role: 'member' });
    expect(r.status).toBe(403);
    expect(r.body.error.message).toBe('Your plan allows 2 team members. Remove a member or add more users on Settings > Plans and Usage.');
  });

  it('failed → past_due; canceled after failed payments → canceled', async () => {
    expect((await signed('failed', { org_id: rt.orgId })).status).toBe(200);
    expect((await plan(admin)).body.subscription_status).toBe('past_due');
    expect((await signed('canceled', { org_id: rt.orgId, reason: 'payment_failed' })).status).toBe(200);
    expect((await plan(admin)).body.subscription_status).toBe('canceled');
  });

  it('checkout (the local stand-in) completes through a signed invoice.paid: active on Pro with an invoice', async () => {
    expect((await rt.orgCall(member, 'POST', '/plan/checkout', { plan_id: 'pro', frequency: 'monthly', currency: 'INR', licences: 3 })).status).toBe(403);
    expect((await rt.orgCall(admin, 'POST', '/plan/checkout', { plan_id: 'pro', frequency: 'monthly', currency: 'INR', licences: 1 })).status).toBe(400);
    const r = await rt.orgCall<{ url: string }>(admin, 'POST', '/plan/checkout', { plan_id: 'pro', frequency: 'monthly', currency: 'INR', licences: 3, addon_phones: 1 });
    expect(r.status).toBe(200);
    expect(r.body.url).toBe('/settings/plans?checkout=success');
    const p = (await plan(admin)).body;
    expect(p).toMatchObject({ subscription_status: 'active', plan: { id: 'pro' }, licences: 3, currency: 'INR', billing_frequency: 'monthly' });
    expect(p.invoices[0]).toMatchObject({ status: 'paid', currency: 'INR', amount: 3 * 3_999_00 + 999_00 });
  });

  it('paying for 2 extra phones through the billing port raises the phone limit by 2 (issue 49 item 14)', async () => {
    const pay = (addon_phones: number) => rt.orgCall<{ url: string }>(admin, 'POST', '/plan/checkout', { plan_id: 'pro', frequency: 'monthly', currency: 'USD', licences: 3, addon_phones });
    expect((await pay(0)).status).toBe(200);
    const before = (await plan(admin)).body;
    expect(before).toMatchObject({ addons: { phones: 0 }, limits: { phones: PLANS.pro.phones } });
    expect((await pay(2)).status).toBe(200);
    const after = (await plan(admin)).body;
    expect(after).toMatchObject({ addons: { phones: 2 }, limits: { phones: before.limits.phones + 2 } });
    expect(after.invoices[0]).toMatchObject({ status: 'paid', currency: 'USD', amount: 3 * PLANS.pro.prices.monthly!.USD + 2 * ADDON_PRICES.phones.USD });
  });
});

describe('billing webhooks are idempotent (event ids kept; late old events ignored)', () => {
  const secret = () => rt.env.STRIPE_WEBHOOK_SECRET ?? process.env.STRIPE_WEBHOOK_SECRET!;
  const deliver = async (ev: { payload: string }) => {
    // signed afresh each time by the official library's test signer, as Stripe signs each retry
    const res = await postBilling(ev.payload, signStripePayload(ev.payload, secret()));
    return { status: res.status, outcome: ((await res.json()) as { outcome?: string }).outcome };
  };
  it('a replayed event is ignored; an event older than the last applied one is ignored; a newer one applies', async () => {
    const t0 = Math.floor(Date.now() / 1000) + 60;
    const paid = stripeShapedEvent('paid', { org_id: rt.orgId, plan_id: 'pro', licences: 3, created: t0 });
    expect(await deliver(paid)).toEqual({ status: 200, outcome: 'applied' });
    expect(await deliver(paid)).toEqual({ status: 200, outcome: 'ignored' });
    // a payment failure from before the payment arrives late: the org stays active
    const oldFailure = stripeShapedEvent('failed', { org_id: rt.orgId, created: t0 - 3600 });
    expect(await deliver(oldFailure)).toEqual({ status: 200, outcome: 'ignored' });
    expect((await plan(admin)).body.subscription_status).toBe('active');
    // a newer failure applies; replaying the older payment afterwards changes nothing
    const newFailure = stripeShapedEvent('failed', { org_id: rt.orgId, created: t0 + 10 });
    expect(await deliver(newFailure)).toEqual({ status: 200, outcome: 'applied' });
    expect(await deliver(paid)).toEqual({ status: 200, outcome: 'ignored' });
    expect((await plan(admin)).body.subscription_status).toBe('past_due');
    const row = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data!;
    expect(row.billing_event_at).toBe(t0 + 10);
    const receipt = (await db().entities.consumerReceipt.get({ consumer: 'billing-webhook', event_id: paid.id }).go()).data!;
    expect(receipt.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000) + 29 * 86_400);
    // a new payment moves it back to active
    expect(await deliver(stripeShapedEvent('paid', { org_id: rt.orgId, plan_id: 'pro', licences: 3, created: t0 + 20 }))).toEqual({ status: 200, outcome: 'applied' });
    expect((await plan(admin)).body.subscription_status).toBe('active');
  });
});

describe('GET /incident (spec §7)', () => {
  it('answers nothing by default, then the incident written by the admin command', async () => {
    const none = await rt.api(member, '/api/incident');
    expect(await none.json()).toEqual({ betterstack: null, featurebase: null });
    await writeFile(process.env.INCIDENT_FILE!, JSON.stringify({ betterstack: { id: 'inc1', message: 'Slow delivery', status: 'degraded' }, featurebase: { id: 'fb1' } }));
    expect(await (await rt.api(member, '/api/incident')).json()).toEqual({ betterstack: { id: 'inc1', message: 'Slow delivery', status: 'degraded' }, featurebase: { id: 'fb1' } });
    expect((await rt.api(null, '/api/incident')).status).toBe(401);
  });
});

describe('trial grant', () => {
  it('the team grants one more week from the trial end', async () => {
    const { grantTrialExtension } = await import('../../shared/plan/plan.ts');
    const before = (await db().entities.organization.get({ org_id: rt.orgId }).go()).data!;
    const ends = await grantTrialExtension(rt.orgId, before.trial_ends_at! - 1000);
    expect(ends).toBe(before.trial_ends_at! + 7 * 86_400_000);
  });
});
