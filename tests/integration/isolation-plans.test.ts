import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedIsolationWorld, type IsolationWorld } from '../factories/isolation-world.ts';
import { eventually } from '../factories/wait.ts';
import { HTTP_ROUTES, routeUse, type HttpRoute } from '../../functions/routes.ts';
import { db } from '../../shared/db/service.ts';
import { forgetOrgPlanState } from '../../shared/plan/gate.ts';
import { ENTITLEMENT_MESSAGES, type Use } from '../../shared/plan/entitlements.rules.ts';
import { PLANS, type Feature } from '../../shared/plan/catalog.rules.ts';
import { signStripePayload, stripeShapedEvent } from '../../shared/plan/billing-local.ts';
import { sendMessage } from '../../shared/inbox/send.ts';
import type { Actor } from '../../shared/auth/actor.ts';
import { API_SCOPES } from '../../shared/apikey/api-key.rules.ts';
import { startReceiver, type Receiver } from '../factories/webhook-receiver.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';

/**
 * The isolation suite's *plans* dimension (issue 42 §3): every route of the registry
 * (functions/routes.ts), against the isolation world (tests/factories/isolation-world.ts), under
 * Starter, Pro, a running trial, an expired trial and a canceled subscription:
 * - paid features (spec §9: what Starter lacks) are refused on Starter (403 plan_feature);
 * - after an end (expired trial, canceled) nothing acts (402 trial_ended / subscription_ended) and
 *   no paid feature is served, while reads (and exports of one's data) stay allowed (spec §4);
 * - no route answers 5xx.
 * What each route is comes from its declared use (functions/routes.ts `use`); the expected answer
 * per plan is written out here ({@link expected}), not computed by the gate under test. Plus one
 * test per finding of the issue, each failing on the code before issue 42.
 */
let rt: TestRuntime;
let w: IsolationWorld;
/** an API key of org A with every scope, made while it was on the trial */
let apiToken = '';
const enc = encodeURIComponent;
const DAY = 86_400_000;
const ENTITLEMENT_CODES = ['subscription_ended', 'trial_ended', 'plan_feature'];

beforeAll(async () => {
  rt = await startTestRuntime();
  w = await seedIsolationWorld(rt);
  const r = await rt.api(w.admin, `/api/orgs/${w.orgId}/api-keys`, { method: 'POST', json: { name: 'plans', scopes: API_SCOPES } });
  if (r.status !== 201) throw new Error(`api key: ${r.status} ${await r.text()}`);
  apiToken = ((await r.json()) as { token: string }).token;
}, 240_000);

type PlanState = 'starter' | 'pro' | 'trialing' | 'expired trial' | 'canceled';
const STATES: PlanState[] = ['starter', 'pro', 'trialing', 'expired trial', 'canceled'];
const rows: Record<string, { checks: number; refused: number; allowed: number; reads_after_end: number }> = {};

afterAll(async () => {
  const lines = Object.entries(rows).map(([s, r]) => `${s}: ${r.checks} route checks, ${r.refused} refused, ${r.allowed} allowed${r.reads_after_end ? `, ${r.reads_after_end} reads served after the end` : ''}`);
  if (lines.length) console.log(`isolation (plans): ${HTTP_ROUTES.length} routes × ${STATES.length} plan states\n${lines.join('\n')}`);
  await rt?.cleanup();
});

/** Put org A on a plan state (the org row's plan fields, as the billing events write them). */
async function setState(s: PlanState): Promise<void> {
  const now = Date.now();
  const period = Math.floor((now + 30 * DAY) / 1000);
  const paid = (plan_id: string, status: string) => ({ subscription_status: status, is_free_trial: false, is_enterprise: false, org_plan: { plan_id, current_period_end: period } });
  const set: Record<string, unknown> =
    s === 'starter'
      ? paid('starter', 'active')
      : s === 'pro'
        ? paid('pro', 'active')
        : s === 'canceled'
          ? paid('pro', 'canceled')
          : { subscription_status: 'trialing', is_free_trial: true, is_enterprise: false, trial_ends_at: s === 'trialing' ? now + 7 * DAY : now - 60_000 };
  const patch = db().entities.organization.patch({ org_id: w.orgId }).set(set as never);
  await (s === 'trialing' || s === 'expired trial' ? patch.remove(['org_plan'] as never) : patch).go();
  forgetOrgPlanState(w.orgId);
}

const PRO_FEATURES: readonly Feature[] = PLANS.pro.features;

/**
 * What the gate must answer (spec §4 Subscription, §9 Plans, issue 42), written out per state:
 * reads and `open` routes always pass; Starter lacks Pro's features and exports; after an end
 * (expired trial, canceled) nothing acts and no feature is served, but data can still be exported.
 */
function expected(s: PlanState, use: Use): 'allow' | 'plan_feature' | 'trial_ended' | 'subscription_ended' {
  if (use === 'open' || use === 'read') return 'allow';
  if (s === 'expired trial') return use === 'export' ? 'allow' : 'trial_ended';
  if (s === 'canceled') return use === 'export' ? 'allow' : 'subscription_ended';
  const feature = use === 'export' ? 'exports' : use === 'write' ? null : use;
  if (!feature) return 'allow';
  if (s === 'starter') return 'plan_feature';
  return PRO_FEATURES.includes(feature) ? 'allow' : 'plan_feature';
}

/** Path parameters: the world's ids where it has them (as the isolation suite), placeholders elsewhere (no real key, rule, … is touched). */
const params = (): Record<string, string> => ({
  org_id: w.orgId,
  chat_id: w.chatO,
  unique_id: w.oInbound,
  ticket_id: w.oTicket,
  task_id: w.oTaskMember,
  label_id: 'lbl_missing',
  job_id: w.bulkJobId,
  phone_id: w.waWebPhoneId,
  email: w.invitedEmail,
  invite_org_id: w.orgId,
  endpoint_id: 'ep_missing',
  event: 'ticket.created',
});

interface Res {
  status: number;
  code: string | undefined;
}
async function callRoute(r: HttpRoute): Promise<Res> {
  const p = params();
  const path = r.path.replace(/\{(\w+)\}/g, (_, k: string) => enc(p[k] ?? 'missing'));
  const token = r.auth === 'jwt' ? w.admin : r.auth === 'apikey' ? apiToken : null;
  const init: RequestInit & { json?: unknown } = { method: r.method };
  if (r.path === '/mcp') {
    init.headers = { accept: 'application/json, text/event-stream' };
    if (r.method === 'POST') init.json = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
  } else if (r.method !== 'GET' && r.method !== 'DELETE') init.json = {};
  const res = await rt.api(token, path, init);
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code };
}

describe('every route under every plan state (issue 42 §3 plans)', () => {
  for (const s of STATES) {
    it(`${s}: paid features refused where the plan lacks them, nothing acts after an end, reads served, no 5xx`, async () => {
      await setState(s);
      const problems: string[] = [];
      const row = (rows[s] = { checks: 0, refused: 0, allowed: 0, reads_after_end: 0 });
      for (const r of HTTP_ROUTES) {
        const use = routeUse(r);
        const want = expected(s, use);
        const res = await callRoute(r);
        const key = `${r.method} ${r.path} (${use})`;
        row.checks++;
        if (res.status >= 500) problems.push(`${key}: HTTP ${res.status} ${res.code ?? ''}`);
        const refused = !!res.code && ENTITLEMENT_CODES.includes(res.code);
        if (refused) row.refused++;
        else row.allowed++;
        if (want === 'allow') {
          if (refused) problems.push(`${key}: refused with ${res.code} (${res.status}), expected to pass the gate`);
          if (use === 'read' && (s === 'canceled' || s === 'expired trial') && res.status < 300) row.reads_after_end++;
        } else if (res.code !== want || res.status !== (want === 'plan_feature' ? 403 : 402)) {
          problems.push(`${key}: expected ${want}, got HTTP ${res.status} ${res.code ?? ''}`);
        }
      }
      await rt.idle();
      expect(problems).toEqual([]);
      if (s === 'starter' || s === 'expired trial' || s === 'canceled') expect(row.refused).toBeGreaterThan(0);
      else expect(row.refused).toBe(0);
    }, 240_000);
  }
});

const actorA = (): Actor => ({ email: w.adminEmail, user_id: 'plans-test', org_id: w.orgId, role: 'admin' });
type Msg = { unique_id: string; body?: string | null; ack?: number | null; delivery_error?: { reason: string } | null };
const messagesOfO = async () => (await rt.orgCall<{ messages: Msg[] }>(w.admin, 'GET', `/chats/${enc(w.chatO)}/messages`)).body.messages;
const sentTo = (number: string) => rt.graph.sent.filter((x) => JSON.stringify(x.body).includes(number)).length;

describe('finding: canceled, ended and expired-trial workspaces keep the service', () => {
  it('after `canceled` (a verified billing event), sends through the web API, /v1 and any automated path are refused and nothing reaches WhatsApp; credits read 0; reads and exports stay', async () => {
    await setState('trialing');
    await rt.idle();
    const before = sentTo(w.oNumber);
    // the billing webhook path of `npm run billing -- canceled` (it forgets the cached plan state)
    const ev = stripeShapedEvent('canceled', { org_id: w.orgId, reason: 'payment_failed' });
    const billed = await fetch(`${rt.url}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(ev.payload, rt.env.STRIPE_WEBHOOK_SECRET ?? process.env.STRIPE_WEBHOOK_SECRET!) }, body: ev.payload });
    expect(billed.status).toBe(200);

    // the very next request: the web API and /v1
    const web = await rt.orgCall<{ error: { code: string; message: string; details: unknown } }>(w.admin, 'POST', `/chats/${enc(w.chatO)}/messages`, { body: 'after cancel (web)' });
    expect(web.status).toBe(402);
    expect(web.body.error).toMatchObject({ code: 'subscription_ended', message: ENTITLEMENT_MESSAGES.subscription_ended, details: [{ field: 'plan', reason: 'subscription_ended' }] });
    const v1 = await rt.api(apiToken, `/v1/orgs/${w.orgId}/chats/${enc(w.chatO)}/messages`, { method: 'POST', json: { body: 'after cancel (v1)' } });
    expect(v1.status).toBe(402);
    expect(((await v1.json()) as { error: { code: string } }).error.code).toBe('subscription_ended');
    const mcp = await rt.api(apiToken, '/mcp', { method: 'POST', headers: { accept: 'application/json, text/event-stream' }, json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'send_message', arguments: { chat_id: w.chatO, body: 'after cancel (mcp)' } } } });
    expect(mcp.status).toBe(402);

    // an automated send (a rule, the AI agent, a schedule, a broadcast) queues through the same
    // domain function: the outbound chokepoint refuses it and records why on the message
    const queued = await sendMessage(actorA(), w.chatO, { body: 'after cancel (automation)' });
    await rt.idle();
    const failed = await eventually(async () => (await messagesOfO()).find((m) => m.unique_id === queued.unique_id && m.ack === -1), 15_000, 'the automated send marked failed');
    expect(failed.delivery_error?.reason).toBe(ENTITLEMENT_MESSAGES.subscription_ended);
    expect(sentTo(w.oNumber)).toBe(before);
    expect((await messagesOfO()).some((m) => m.body?.startsWith('after cancel (web') || m.body?.startsWith('after cancel (v1'))).toBe(false);

    // broadcast credits read 0; reading and exporting one's data stay possible
    const credits = await rt.orgCall<{ limit: number; remaining: number }>(w.admin, 'GET', '/broadcasts/credits');
    expect(credits.status).toBe(200);
    expect(credits.body).toMatchObject({ limit: 0, remaining: 0 });
    expect((await rt.orgCall(w.admin, 'GET', '/chats')).status).toBe(200);
    expect((await rt.api(w.admin, `/api/orgs/${w.orgId}/chats/export.csv`)).status).toBe(200);
    expect((await rt.api(w.admin, `/api/orgs/${w.orgId}/contacts/export.csv`)).status).toBe(200);
    // paying stays open
    expect((await rt.orgCall(w.admin, 'GET', '/plan')).status).toBe(200);
    expect((await rt.orgCall(w.admin, 'POST', '/plan/checkout', { plan_id: 'pro', frequency: 'monthly', currency: 'USD', licences: 3 })).status).toBe(200);
  }, 120_000);

  it('an expired trial (trial_ends_at passed) loses the Pro features and may not act; reads and exports stay', async () => {
    await setState('expired trial');
    const plan = await rt.orgCall<{ plan: { id: string }; features: string[] }>(w.admin, 'GET', '/plan');
    expect(plan.body.plan.id).toBe('starter');
    expect(plan.body.features).toEqual([]);
    const rule = await rt.orgCall<{ error: { code: string; details: unknown } }>(w.admin, 'POST', '/rules', { name: 'x', trigger: { type: 'message.received' }, actions: [{ type: 'close' }] });
    expect(rule.status).toBe(402);
    expect(rule.body.error).toMatchObject({ code: 'trial_ended', details: [{ field: 'plan', reason: 'rules_engine', plan_needed: 'pro' }] });
    expect((await rt.orgCall<{ error: { code: string } }>(w.admin, 'POST', '/api-keys', { name: 'k', scopes: ['chats:read'] })).body.error.code).toBe('trial_ended');
    expect((await rt.orgCall<{ error: { code: string } }>(w.admin, 'POST', `/chats/${enc(w.chatO)}/messages`, { body: 'after the trial' })).body.error.code).toBe('trial_ended');
    expect((await rt.api(apiToken, `/v1/orgs/${w.orgId}/chats`)).status).toBe(402);
    expect((await rt.orgCall(w.admin, 'GET', `/chats/${enc(w.chatO)}/messages`)).status).toBe(200);
    expect((await rt.api(w.admin, `/api/orgs/${w.orgId}/chats/export.csv`)).status).toBe(200);
  }, 60_000);
});

describe('finding: automation keeps acting after an end', () => {
  let rx: Receiver;
  beforeAll(async () => {
    process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK = '1';
    rx = await startReceiver();
  });
  afterAll(async () => {
    await rx?.close();
    delete process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK;
  });

  it('after `canceled`, a customer message reaches no webhook and runs no rule (they did while on the trial)', async () => {
    await setState('trialing');
    const number = '15550009077';
    const chat = `${number}@c.us`;
    const ep = await rt.orgCall(w.admin, 'POST', '/webhooks', { url: `${rx.url}/plans`, events: ['message.received'], description: 'plans' });
    expect(ep.status).toBe(201);
    const rule = await rt.orgCall(w.admin, 'POST', '/rules', { name: 'Note on every message', trigger: { type: 'message.received' }, actions: [{ type: 'private_note', body: 'plans-rule-note' }] });
    expect(rule.status).toBe(201);
    const notes = async () => (await rt.orgCall<{ messages: Msg[] }>(w.admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages.filter((m) => m.body === 'plans-rule-note').length;
    const hooked = (text: string) => rx.received.filter((r) => r.path === '/plans' && r.body.includes(text)).length;

    // on the trial both act
    await rt.postWebhook(inboundText(rt.phone, number, 'on the trial', { name: 'Pat', id: newWamid() }));
    await eventually(async () => hooked('on the trial') > 0, 20_000, 'the webhook on the trial');
    await eventually(async () => (await notes()) === 1, 20_000, 'the rule note on the trial');

    await setState('canceled');
    await rt.postWebhook(inboundText(rt.phone, number, 'after the end', { name: 'Pat', id: newWamid() }));
    await rt.idle();
    // the message itself is kept (nothing is deleted, inbound still arrives) ...
    await eventually(async () => (await rt.orgCall<{ messages: Msg[] }>(w.admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages.some((m) => m.body === 'after the end'), 15_000, 'the inbound message stored');
    await rt.idle();
    // ... but no automation acts on it
    expect(hooked('after the end')).toBe(0);
    expect(await notes()).toBe(1);
  }, 120_000);
});

describe('finding: Starter gets paid features', () => {
  it('on Starter, API keys, webhooks, /v1, MCP and the CSV exports of contacts and chats are refused with 403 plan_feature', async () => {
    await setState('starter');
    const refused = async (res: Promise<Response>, what: string, feature: Feature) => {
      const r = await res;
      const body = (await r.json()) as { error?: { code: string; details: Array<{ reason: string; plan_needed: string }> } };
      expect(r.status, what).toBe(403);
      expect(body.error, what).toMatchObject({ code: 'plan_feature', details: [{ field: 'plan', reason: feature, plan_needed: 'pro' }] });
    };
    const org = `/api/orgs/${w.orgId}`;
    await refused(rt.api(w.admin, `${org}/api-keys`, { method: 'POST', json: { name: 'starter', scopes: ['chats:read'] } }), 'create an API key', 'custom_api_webhooks');
    await refused(rt.api(w.admin, `${org}/webhooks`, { method: 'POST', json: { url: 'https://hooks.example.com/starter', events: ['ticket.created'] } }), 'create a webhook', 'custom_api_webhooks');
    await refused(rt.api(w.admin, `${org}/hooks`, { method: 'POST', json: { target_url: 'https://hooks.zapier.com/hooks/standard/1/x', event: 'ticket.created', source: 'zapier' } }), 'subscribe a REST hook', 'custom_api_webhooks');
    await refused(rt.api(apiToken, `/v1/orgs/${w.orgId}/chats`), 'GET /v1 chats', 'custom_api_webhooks');
    await refused(rt.api(apiToken, `/v1/orgs/${w.orgId}/chats/${enc(w.chatO)}/messages`, { method: 'POST', json: { body: 'from starter' } }), 'POST /v1 message', 'custom_api_webhooks');
    await refused(rt.api(apiToken, '/mcp', { method: 'POST', headers: { accept: 'application/json, text/event-stream' }, json: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } }), 'MCP', 'custom_api_webhooks');
    await refused(rt.api(w.admin, `${org}/chats/export.csv`), 'export chats', 'exports');
    await refused(rt.api(w.admin, `${org}/contacts/export.csv`), 'export contacts', 'exports');
    // Starter itself still works: sending, reading
    expect((await rt.orgCall(w.admin, 'POST', `/chats/${enc(w.chatO)}/messages`, { body: 'on starter' })).status).toBe(201);
    expect((await rt.orgCall(w.admin, 'GET', '/chats')).status).toBe(200);
  }, 60_000);
});
