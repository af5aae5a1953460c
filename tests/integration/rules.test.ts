import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { schedulerPort, setSchedulerPort, type ScheduledCommand } from '../../shared/ports/scheduler.ts';
import { enqueue } from '../../shared/ports/commands.ts';
import { db } from '../../shared/db/service.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';
import { handleRuleEvent, takeSampleToken, type BusEvent } from '../../shared/rules/engine.ts';
import { ruleEventRelevant } from '../../shared/rules/relevance.ts';
import { signStripePayload, stripeShapedEvent } from '../../shared/plan/billing-local.ts';
import { getOrgClock } from '../../shared/org/org-clock.ts';
import { dueAfter } from '../../shared/rules/business-time.rules.ts';
import type { Rule, RuleLog } from '../../shared/rules/rule.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';

/**
 * Automation rules end to end (issue 17) against the local runtime: CRUD with versions and the
 * plan limit, a customer message acted on (label, templated reply, note), not-matched reasons in
 * the log, the loop guard, idempotent actions on a redelivered event, follow-ups through an
 * injected scheduler (fired by the test, no sleeps) cancelled by a customer reply, the dry run.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const enc = encodeURIComponent;
const pending = new Map<string, ScheduledCommand>();
const CHAT = '15550001111@c.us';

type ApiError = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const call = async <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown) => rt.orgCall<T>(token, method, path, json);
const logsOf = async (q = '') => (await call<{ logs: RuleLog[]; cursor: string | null }>(admin, 'GET', `/logs/rules${q}`)).body.logs;
const messagesOf = async (chat: string) => (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages;
const chatOf = async (chat: string) => (await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(chat)}`)).body.chat;
let vip = '';

/** Fire the rule wake-ups the test scheduler holds (what EventBridge Scheduler would do when due). */
async function fireWakeups(): Promise<number> {
  const due = [...pending.values()].filter((c) => c.queue === 'rule-actions');
  for (const c of due) {
    pending.delete(c.name);
    await enqueue(c.queue, c.body);
  }
  await rt.idle();
  return due.length;
}

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  const real = await schedulerPort();
  setSchedulerPort({
    schedule: async (cmd) => (cmd.queue === 'rule-actions' ? void pending.set(cmd.name, cmd) : real.schedule(cmd)),
    cancel: async (name) => (pending.delete(name) ? undefined : real.cancel(name)),
  });
  vip = (await call<{ label: { label_id: string } }>(admin, 'POST', '/labels', { name: 'Rules VIP', color: '#1f7a8c' })).body.label.label_id;
  // Pro with one licence: 2 rules (spec §9), through a verified billing event like production
  await setPlan('pro', 1);
}, 120_000);

/** Move the org's subscription with a signed provider event (shared/plan: forgets the cached plan state). */
async function setPlan(planId: 'starter' | 'pro', licences: number): Promise<void> {
  const ev = stripeShapedEvent('paid', { org_id: rt.orgId, plan_id: planId, licences });
  const secret = rt.env.STRIPE_WEBHOOK_SECRET ?? process.env.STRIPE_WEBHOOK_SECRET!;
  const res = await fetch(`${rt.url}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(ev.payload, secret) }, body: ev.payload });
  expect(res.status).toBe(200);
}

afterAll(async () => {
  setSchedulerPort(undefined);
  await rt?.cleanup();
});

describe('rules consumer gate (issue 23: an org without rules costs the consumer nothing)', () => {
  // first in the file: the org has no rule and no SLA policy yet
  const busEvent = (type: string, properties: Record<string, unknown>, id: string): BusEvent => ({ 'detail-type': type, detail: { properties: { org_id: rt.orgId, ...properties }, metadata: { id, occurred_at: new Date().toISOString() } } }) as BusEvent;

  it('skips events with no table receipt, keeps a few messages a second as dry-run samples, and takes everything again once a rule exists', async () => {
    const body = inboundText(rt.phone, '15550002222', 'hello, anyone?', { name: 'Bo' }) as unknown as { entry: Array<{ changes: Array<{ value: { messages: Array<{ id: string }> } }> }> };
    const wamid = body.entry[0]!.changes[0]!.value.messages[0]!.id;
    await rt.postWebhook(body);
    await rt.idle();
    // handled (a sample at most) without a receipt row: a repeat changes nothing
    const receipt = await db().entities.consumerReceipt.get({ consumer: 'rules-engine', event_id: `message.received:${rt.orgId}:${wamid}` }).go();
    expect(receipt.data).toBeNull();
    const message = { chat_id: '15550002222@c.us', from_me: false, message_type: 'text' };
    const read = busEvent('chat.updated', { chat: { chat_id: '15550002222@c.us' }, changes: ['unread_count'] }, 'gate-read');
    const received = busEvent('message.received', { chat: { chat_id: '15550002222@c.us' }, message }, 'gate-msg');
    expect(await ruleEventRelevant(read)).toBe(false);
    // a message while dry-run sample tokens are left is relevant (a sample is kept); none left: skipped
    while (takeSampleToken(rt.orgId, 'message.received', Date.now()));
    expect(await ruleEventRelevant(received)).toBe(false);
    // the org's first rule (the API forgets the cached list): every message event counts again
    const created = await call<{ rule: Rule }>(admin, 'POST', '/rules', { name: 'Gate check', trigger: { type: 'message.received' }, actions: [{ type: 'add_label', label_id: vip }], enabled: false });
    expect(created.status).toBe(201);
    expect(await ruleEventRelevant(received)).toBe(true);
    expect(await ruleEventRelevant(read)).toBe(false);
    expect((await call(admin, 'DELETE', `/rules/${created.body.rule.rule_id}`)).status).toBe(200);
  });
});

describe('rules API', () => {
  let rule: Rule;
  it('creates a rule, refuses bad input with field and reason, keeps versions', async () => {
    const bad = await call<ApiError>(admin, 'POST', '/rules', { name: 'x', trigger: { type: 'message.received' }, actions: [{ type: 'add_label', label_id: 'nope' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'actions.0.label_id', reason: 'is not a label of this workspace' }]);
    const badTpl = await call<ApiError>(admin, 'POST', '/rules', { name: 'x', trigger: { type: 'message.received' }, actions: [{ type: 'send_message', body: 'Hi {{ contact.name ' }] });
    expect(badTpl.status).toBe(400);
    expect(badTpl.body.error.details?.[0].field).toBe('actions.0.body');
    const badOp = await call<ApiError>(admin, 'POST', '/rules', { name: 'x', trigger: { type: 'message.received' }, conditions: { match: 'all', items: [{ field: 'message.body', op: 'matches' }] }, actions: [{ type: 'close' }] });
    expect(badOp.status).toBe(400);
    expect(badOp.body.error.details?.[0].field).toBe('conditions.items.0');

    const r = await call<{ rule: Rule }>(admin, 'POST', '/rules', {
      name: 'Orders to VIP',
      trigger: { type: 'message.received' },
      conditions: { match: 'all', items: [{ field: 'message.body', op: 'contains', value: 'order' }, { match: 'any', items: [{ field: 'chat.labels', op: 'not_contains', value: 'Spam' }, { field: 'time.business_hours', op: 'equals', value: true }] }] },
      actions: [
        { type: 'add_label', label_id: vip },
        { type: 'send_message', body: "Hi {{contact.name | default: 'there'}}, we are on it." },
        { type: 'private_note', body: 'Order question from {{contact.number}}' },
      ],
    });
    expect(r.status).toBe(201);
    rule = r.body.rule;
    expect(rule).toMatchObject({ version: 1, enabled: true, created_by: rt.adminEmail });
    const off = await call<{ rule: Rule }>(admin, 'PUT', `/rules/${rule.rule_id}`, { enabled: false });
    expect(off.body.rule).toMatchObject({ enabled: false, version: 2 });
    const on = await call<{ rule: Rule }>(admin, 'PUT', `/rules/${rule.rule_id}`, { enabled: true });
    expect(on.body.rule.version).toBe(3);
    const got = await call<{ rule: Rule; versions: Array<{ version: number; change: string }> }>(admin, 'GET', `/rules/${rule.rule_id}`);
    expect(got.body.versions.map((v) => [v.version, v.change])).toEqual([
      [3, 'enabled'],
      [2, 'disabled'],
      [1, 'created'],
    ]);
    expect((await call(admin, 'GET', '/rules/rule_missing')).status).toBe(404);
  });

  it('members follow member_permissions.rules', async () => {
    expect((await call(member, 'GET', '/rules')).status).toBe(200);
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: { member_permissions: { rules: false } } } }).go();
    forgetOrgPreferences();
    await eventually(async () => (await call(member, 'GET', '/rules')).status === 403 || null, 10_000, 'members refused');
    await db().entities.organization.patch({ org_id: rt.orgId }).set({ org_metadata: { preferences: { member_permissions: {} } } }).go();
    forgetOrgPreferences();
  });

  it('acts on a customer message: label, templated reply through the normal send path, note; logs each action', async () => {
    await rt.postWebhook(inboundText(rt.phone, '15550001111', 'Where is my order?', { name: 'Ana' }));
    const chat = await eventually(async () => {
      const c = await chatOf(CHAT).catch(() => null);
      return c?.label_ids?.includes(vip) ? c : null;
    }, 15_000, 'the label');
    expect(chat.label_ids).toContain(vip);
    const msgs = await eventually(async () => {
      const m = await messagesOf(CHAT);
      return m.some((x) => x.is_private_note) && m.some((x) => x.from_me && !x.is_private_note) ? m : null;
    }, 15_000, 'reply and note');
    expect(msgs.find((m) => m.from_me && !m.is_private_note)?.body).toBe('Hi Ana, we are on it.');
    expect(msgs.find((m) => m.is_private_note)?.body).toBe('Order question from 15550001111');
    const [entry] = await eventually(async () => {
      const l = await logsOf(`?rule_id=${rule.rule_id}`);
      return l.length ? l : null;
    }, 10_000, 'log');
    expect(entry).toMatchObject({ trigger: 'message.received', outcome: 'matched', chat_id: CHAT, rule_name: 'Orders to VIP' });
    expect(entry.actions.map((a) => [a.type, a.status])).toEqual([
      ['add_label', 'done'],
      ['send_message', 'done'],
      ['private_note', 'done'],
    ]);
    expect(entry.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('logs why a rule did not match, and filters by outcome and chat', async () => {
    await rt.postWebhook(inboundText(rt.phone, '15550001111', 'Thanks!', { name: 'Ana' }));
    const miss = await eventually(async () => (await logsOf(`?outcome=not_matched&chat_id=${enc(CHAT)}`))[0] ?? null, 10_000, 'a not-matched log');
    expect(miss.reasons[0]).toBe('message.body contains "order" (was "Thanks!")');
    expect((await logsOf('?outcome=matched')).every((l) => l.outcome === 'matched')).toBe(true);
    const bad = await call<ApiError>(admin, 'GET', '/logs/rules?outcome=maybe');
    expect(bad.status).toBe(400);
  });

  it('acts once per event + rule + action, whatever is redelivered', async () => {
    const before = (await messagesOf(CHAT)).length;
    const e: BusEvent = {
      'detail-type': 'message.received',
      detail: {
        properties: { org_id: rt.orgId, chat: { ...(await chatOf(CHAT)) }, message: { chat_id: CHAT, unique_id: 'u-redeliver', body: 'order again', from_me: false, message_type: 'text', timestamp: Date.now(), ack: 0 } },
        metadata: { id: 'message.received:test:redeliver', occurred_at: new Date().toISOString() },
      },
    };
    await handleRuleEvent(e);
    await handleRuleEvent(e);
    await rt.idle();
    const logs = (await logsOf(`?rule_id=${rule.rule_id}`)).filter((l) => l.event_id === 'message.received:test:redeliver');
    // one row per evaluation: the repeat's row has the same id and does not replace what was done
    expect(logs).toHaveLength(1);
    expect(logs[0]!.actions.map((a) => a.status)).toEqual(['done', 'done', 'done']);
    // one reply and one note more, not two
    expect((await messagesOf(CHAT)).length).toBe(before + 2);
  });

  it('never triggers on its own actions (loop guard) and stops at the plan limit with a clear message', async () => {
    const echo = await call<{ rule: Rule }>(admin, 'POST', '/rules', { name: 'Echo', trigger: { type: 'message.sent' }, actions: [{ type: 'send_message', body: 'echo' }] });
    expect(echo.status).toBe(201);
    const limit = await call<ApiError>(admin, 'POST', '/rules', { name: 'Too many', trigger: { type: 'message.sent' }, actions: [{ type: 'close' }] });
    expect(limit.status).toBe(409);
    expect(limit.body.error.message).toBe('Your plan allows 2 automation rules (2 per licence). Delete a rule or add licences to create another.');
    await call(admin, 'POST', `/chats/${enc(CHAT)}/messages`, { body: 'A member writes' });
    const skipped = await eventually(async () => (await logsOf(`?rule_id=${echo.body.rule.rule_id}&outcome=skipped`))[0] ?? null, 15_000, 'loop guard log');
    expect(skipped.reasons[0]).toMatch(/loop guard/);
    await rt.idle();
    const echoes = (await messagesOf(CHAT)).filter((m) => m.body === 'echo');
    expect(echoes).toHaveLength(1);
    expect((await call(admin, 'DELETE', `/rules/${echo.body.rule.rule_id}`)).status).toBe(200);
  });

  it('follow-ups: pending in the thread, sent when the customer stays silent, cancelled by a reply', async () => {
    await call(admin, 'DELETE', `/rules/${rule.rule_id}`);
    const fu = await call<{ rule: Rule }>(admin, 'POST', '/rules', {
      name: 'Nudge',
      trigger: { type: 'message.sent' },
      conditions: { match: 'all', items: [{ field: 'message.body', op: 'starts_with', value: 'Quote' }] },
      actions: [{ type: 'follow_up', after_minutes: 120, body: 'Any news, {{contact.name}}?', repeat: 2, then: 'label', then_label_id: vip }],
    });
    expect(fu.status).toBe(201);
    await call(admin, 'PUT', `/chats/${enc(CHAT)}/labels`, {});
    await call(admin, 'POST', '/chats/labels', { chat_ids: [CHAT], remove: [vip] });
    await call(admin, 'POST', `/chats/${enc(CHAT)}/messages`, { body: 'Quote: 120 EUR' });
    const items = await eventually(async () => {
      const p = (await call<{ pending: Array<{ key: string; summary: string }> }>(admin, 'GET', `/chats/${enc(CHAT)}/rule-pending`)).body.pending;
      return p.length ? p : null;
    }, 15_000, 'pending follow-up');
    expect(items[0].summary).toMatch(/Follow-up 1 of 2/);
    expect(await fireWakeups()).toBe(1);
    await eventually(async () => (await messagesOf(CHAT)).some((m) => m.body === 'Any news, Ana?') || null, 10_000, 'follow-up 1');
    expect(await fireWakeups()).toBe(1);
    await eventually(async () => (await messagesOf(CHAT)).filter((m) => m.body === 'Any news, Ana?').length === 2 || null, 10_000, 'follow-up 2');
    expect(await fireWakeups()).toBe(1);
    await eventually(async () => (await chatOf(CHAT)).label_ids?.includes(vip) || null, 10_000, 'then: label');

    // a new quote starts a new chain; the customer's reply cancels it
    await call(admin, 'POST', `/chats/${enc(CHAT)}/messages`, { body: 'Quote: 99 EUR' });
    await eventually(async () => (await call<{ pending: unknown[] }>(admin, 'GET', `/chats/${enc(CHAT)}/rule-pending`)).body.pending.length === 1 || null, 10_000, 'pending again');
    await rt.postWebhook(inboundText(rt.phone, '15550001111', 'ok deal', { name: 'Ana' }));
    await eventually(async () => (await call<{ pending: unknown[] }>(admin, 'GET', `/chats/${enc(CHAT)}/rule-pending`)).body.pending.length === 0 || null, 10_000, 'cancelled by reply');
    expect(await fireWakeups()).toBe(0);

    // a member cancels a pending follow-up from the thread
    await call(admin, 'POST', `/chats/${enc(CHAT)}/messages`, { body: 'Quote: 98 EUR' });
    const [p] = await eventually(async () => {
      const l = (await call<{ pending: Array<{ key: string }> }>(member, 'GET', `/chats/${enc(CHAT)}/rule-pending`)).body.pending;
      return l.length ? l : null;
    }, 10_000, 'pending for the member');
    expect((await call(member, 'DELETE', `/chats/${enc(CHAT)}/rule-pending/${enc(p.key)}`)).status).toBe(200);
    expect((await call(member, 'DELETE', `/chats/${enc(CHAT)}/rule-pending/${enc(p.key)}`)).status).toBe(404);

    // dry run: what the rule would have done on the last messages sent
    const dry = await call<{ evaluated: number; matched: number; results: Array<{ matched: boolean; actions: Array<{ would: string }> }> }>(admin, 'POST', `/rules/${fu.body.rule.rule_id}/dry-run`, {});
    expect(dry.status).toBe(200);
    expect(dry.body.evaluated).toBeGreaterThanOrEqual(4);
    expect(dry.body.matched).toBeGreaterThanOrEqual(3);
    expect(dry.body.results.find((r) => r.matched)?.actions[0].would).toMatch(/^follow up “Any news, Ana\?” after 120 min/);
  });
});

describe('actions unblocked by issue 15 and message flags', () => {
  it('sets a chat custom property (templated) and flags the customer message; an unknown property is a 400', async () => {
    const prop = await call<{ property: { property_id: string } }>(admin, 'POST', '/properties', { property_name: 'Rules temperature', property_value_type: 'text' });
    expect(prop.status).toBe(201);
    const pid = prop.body.property.property_id;
    const bad = await call<ApiError>(admin, 'POST', '/rules', { name: 'x', trigger: { type: 'message.received' }, actions: [{ type: 'set_property', property_id: 'nope', value: 'x' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ field: 'actions.0.property_id', reason: 'is not a custom property of this workspace' }]);
    const r = await call<{ rule: Rule }>(admin, 'POST', '/rules', {
      name: 'Urgent',
      trigger: { type: 'message.received' },
      conditions: { match: 'all', items: [{ field: 'message.body', op: 'contains', value: 'urgent' }] },
      actions: [{ type: 'set_property', property_id: pid, value: 'hot for {{contact.name}}' }, { type: 'flag_message' }],
    });
    expect(r.status).toBe(201);
    await rt.postWebhook(inboundText(rt.phone, '15550001111', 'this is urgent', { name: 'Ana' }));
    const log = await eventually(async () => (await logsOf(`?rule_id=${r.body.rule.rule_id}&outcome=matched`))[0] ?? null, 15_000, 'urgent rule ran');
    expect(log.actions.map((a) => `${a.type}:${a.status}`)).toEqual(['set_property:done', 'flag_message:done']);
    expect(((await chatOf(CHAT)) as unknown as { custom_properties?: Record<string, string> }).custom_properties?.[pid]).toBe('hot for Ana');
    const urgent = (await messagesOf(CHAT)).find((m) => m.body === 'this is urgent');
    expect(urgent?.flag_status).toBe(true);
    expect((await call(admin, 'DELETE', `/rules/${r.body.rule.rule_id}`)).status).toBe(200);
  });
});

describe('send a WhatsApp template (issue 16 templates in rules)', () => {
  it('sends a synced template with its variables rendered, through the normal send path; an unknown template is refused when it runs', async () => {
    expect((await call(admin, 'POST', '/templates/sync', {})).status).toBe(200);
    const bad = await call<ApiError>(admin, 'POST', '/rules', { name: 'x', trigger: { type: 'message.received' }, actions: [{ type: 'send_template', name: '', language: 'en_US' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details?.[0]?.field).toBe('actions.0.name');
    const r = await call<{ rule: Rule }>(admin, 'POST', '/rules', {
      name: 'Reminder',
      trigger: { type: 'message.received' },
      conditions: { match: 'all', items: [{ field: 'message.body', op: 'contains', value: 'remind me' }] },
      actions: [{ type: 'send_template', name: 'appointment_reminder', language: 'en_US', values: { 'body.1': '{{contact.name}}', 'body.2': 'Tuesday 3 pm' } }],
    });
    expect(r.status).toBe(201);
    await rt.postWebhook(inboundText(rt.phone, '15550001111', 'please remind me', { name: 'Ana' }));
    const log = await eventually(async () => (await logsOf(`?rule_id=${r.body.rule.rule_id}&outcome=matched`))[0] ?? null, 15_000, 'template rule ran');
    expect(log.actions.map((a) => `${a.type}:${a.status}`)).toEqual(['send_template:done']);
    const sent = await eventually(async () => (await messagesOf(CHAT)).find((m) => m.from_me && (m.body ?? '').startsWith('Hello Ana, this is a reminder of your appointment on Tuesday 3 pm')) ?? null, 15_000, 'template message stored');
    expect(sent.message_type).toBe('template');
    expect((await call(admin, 'DELETE', `/rules/${r.body.rule.rule_id}`)).status).toBe(200);
  });
});

describe('business hours (the org clock)', () => {
  it("a 'no reply within N business minutes' timer is due after N minutes of the org's open hours", async () => {
    const r = await call<{ rule: Rule }>(admin, 'POST', '/rules', { name: 'Slow answer', trigger: { type: 'no_reply', minutes: 90, business_hours: true }, actions: [{ type: 'add_label', label_id: vip }] });
    expect(r.status).toBe(201);
    await rt.postWebhook(inboundText(rt.phone, '15550001111', 'anyone there?', { name: 'Ana' }));
    const cmd = await eventually(async () => [...pending.values()].find((c) => c.queue === 'rule-actions' && (JSON.parse(c.body) as { rule_id: string }).rule_id === r.body.rule.rule_id) ?? null, 15_000, 'no-reply timer');
    const w = JSON.parse(cmd.body) as { kind: string; anchor: number };
    expect(w.kind).toBe('no_reply');
    const clock = await getOrgClock(rt.orgId);
    expect(cmd.at).toBe(dueAfter(clock, w.anchor, 90 * 60_000, true));
    expect(cmd.at - w.anchor).toBeGreaterThanOrEqual(90 * 60_000);
    pending.delete(cmd.name);
    expect((await call(admin, 'DELETE', `/rules/${r.body.rule.rule_id}`)).status).toBe(200);
  });
});

describe('plan gate (spec §9: Starter lacks the rules engine)', () => {
  it('a Starter org gets 403 plan_feature on create and enable; its rules do not run; disabling stays allowed', async () => {
    const kept = await call<{ rule: Rule }>(admin, 'POST', '/rules', { name: 'Kept from Pro', trigger: { type: 'message.received' }, actions: [{ type: 'private_note', body: 'starter-gate' }] });
    expect(kept.status).toBe(201);
    const listed = await call<{ limit: number; per_licence: number }>(admin, 'GET', '/rules');
    expect(listed.body).toMatchObject({ limit: 2, per_licence: 2 });

    await setPlan('starter', 1);
    expect((await call<{ limit: number }>(admin, 'GET', '/rules')).body.limit).toBe(0);
    const created = await call<ApiError>(admin, 'POST', '/rules', { name: 'On Starter', trigger: { type: 'message.received' }, actions: [{ type: 'close' }] });
    expect(created.status).toBe(403);
    expect(created.body.error).toMatchObject({ code: 'plan_feature', message: 'Rules engine is not included in your plan. Upgrade to Pro on Settings > Plans and Usage.', details: [{ field: 'plan', reason: 'rules_engine', plan_needed: 'pro' }] });

    // the consumer skips the org: an inbound message leaves no evaluation and no note
    const before = (await messagesOf(CHAT)).length;
    await rt.postWebhook(inboundText(rt.phone, '15550001111', 'hello on starter', { name: 'Ana' }));
    await eventually(async () => (await messagesOf(CHAT)).some((m) => m.body === 'hello on starter') || null, 15_000, 'inbound stored');
    await rt.idle();
    expect(await logsOf(`?rule_id=${kept.body.rule.rule_id}`)).toEqual([]);
    expect((await messagesOf(CHAT)).length).toBe(before + 1);

    // disabling is allowed (tidy up after a downgrade); enabling again is refused
    expect((await call(admin, 'PUT', `/rules/${kept.body.rule.rule_id}`, { enabled: false })).status).toBe(200);
    const enable = await call<ApiError>(admin, 'PUT', `/rules/${kept.body.rule.rule_id}`, { enabled: true });
    expect(enable.status).toBe(403);
    expect(enable.body.error.code).toBe('plan_feature');

    // back on Pro the rule can be enabled again
    await setPlan('pro', 1);
    expect((await call(admin, 'PUT', `/rules/${kept.body.rule.rule_id}`, { enabled: true })).status).toBe(200);
  });
});
