import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { schedulerPort, setSchedulerPort, type ScheduledCommand } from '../../shared/ports/scheduler.ts';
import { enqueue } from '../../shared/ports/commands.ts';
import type { RuleLog } from '../../shared/rules/rule.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { SlaBreach, SlaPolicy } from '../../shared/sla/sla.schemas.ts';
import type { SlaWakeup } from '../../shared/sla/sla-engine.ts';
import type { AnalyticsReport } from '../../shared/analytics/analytics.schemas.ts';
import type { RuleWakeup } from '../../shared/rules/engine.ts';
import { getOrgClock } from '../../shared/org/org-clock.ts';
import { dueAfter } from '../../shared/rules/business-time.rules.ts';
import { db } from '../../shared/db/service.ts';
import { forgetSlaPolicies } from '../../shared/sla/sla.ts';

/**
 * SLA policies end to end (issue 17 §6) against the local runtime: CRUD with field + reason
 * errors; a customer message starts the clocks (wake-ups armed through an injected scheduler the
 * test fires itself: no sleeps); near breach and breach run the policy's actions once, record the
 * breach once (report + analytics), even when the wake-up is delivered twice; a team reply meets
 * the response clocks and makes their wake-ups moot; a close ends the SLA.
 */
let rt: TestRuntime;
let admin: string;
const enc = encodeURIComponent;
const CHAT = '15550007777@c.us';
const armed = new Map<string, ScheduledCommand>();
type ApiError = { error: { code: string; details?: Array<{ field: string; reason: string }> } };
const call = async <T = Record<string, unknown>>(method: string, path: string, json?: unknown) => rt.orgCall<T>(admin, method, path, json);
const chatOf = async () => (await call<{ chat: Chat }>('GET', `/chats/${enc(CHAT)}`)).body.chat;
const breaches = async () => (await call<{ breaches: SlaBreach[] }>('GET', '/logs/sla')).body.breaches;
const wakeups = () => [...armed.values()].filter((c) => c.queue === 'rule-actions').map((c) => ({ cmd: c, w: JSON.parse(c.body) as SlaWakeup })).filter((x) => x.w.kind === 'sla');
let breachLabel = '';

/** Fire the armed SLA wake-ups that match (what EventBridge Scheduler does when due); `keep` leaves them armed (a redelivery later). */
async function fire(match: (w: SlaWakeup) => boolean, keep = false): Promise<SlaWakeup[]> {
  const due = wakeups().filter((x) => match(x.w));
  for (const { cmd } of due) {
    if (!keep) armed.delete(cmd.name);
    await enqueue(cmd.queue, cmd.body);
  }
  await rt.idle();
  return due.map((x) => x.w);
}

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  const real = await schedulerPort();
  setSchedulerPort({
    schedule: async (cmd) => (cmd.queue === 'rule-actions' ? void armed.set(cmd.name, cmd) : real.schedule(cmd)),
    cancel: async (name) => (armed.delete(name) ? undefined : real.cancel(name)),
  });
  breachLabel = (await call<{ label: { label_id: string } }>('POST', '/labels', { name: 'SLA breached', color: '#b42318' })).body.label.label_id;
}, 120_000);

afterAll(async () => {
  setSchedulerPort(undefined);
  await rt?.cleanup();
});

describe('SLA policies (issue 17 §6)', () => {
  let policy: SlaPolicy;
  it('creates, lists and updates policies; bad input is 400 with the field and reason', async () => {
    const noTarget = await call<ApiError>('POST', '/sla-policies', { name: 'x', targets: {} });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.error.details?.[0].field).toBe('targets');
    const badLabel = await call<ApiError>('POST', '/sla-policies', { name: 'x', scope: { label_ids: ['nope'] }, targets: { first_response_minutes: 5 } });
    expect(badLabel.body.error.details).toEqual([{ field: 'scope.label_ids.0', reason: 'is not a label of this workspace' }]);
    const badAction = await call<ApiError>('POST', '/sla-policies', { name: 'x', targets: { first_response_minutes: 5 }, breach_actions: [{ type: 'close' }] });
    expect(badAction.status).toBe(400);
    expect(badAction.body.error.details?.[0].field).toBe('breach_actions.0.type');
    const badMember = await call<ApiError>('POST', '/sla-policies', { name: 'x', targets: { first_response_minutes: 5 }, near_breach_actions: [{ type: 'notify', member: 'ghost@example.com', text: 'hi' }] });
    expect(badMember.body.error.details).toEqual([{ field: 'near_breach_actions.0.member', reason: 'is not a member of this workspace' }]);

    const res = await call<{ policy: SlaPolicy }>('POST', '/sla-policies', {
      name: 'Everyone',
      targets: { first_response_minutes: 30, next_response_minutes: 20, resolution_minutes: 240 },
      business_hours: false,
      near_breach_percent: 50,
      near_breach_actions: [{ type: 'private_note', body: '{{sla.target}} for {{contact.name}} is due at {{sla.due_at}}' }],
      breach_actions: [{ type: 'add_label', label_id: breachLabel }, { type: 'assign', mode: 'member', member: rt.memberEmail }],
    });
    expect(res.status).toBe(201);
    policy = res.body.policy;
    expect(policy).toMatchObject({ enabled: true, scope: { label_ids: [], phone_ids: [] }, near_breach_percent: 50 });
    const list = await call<{ policies: SlaPolicy[] }>('GET', '/sla-policies');
    expect(list.body.policies.map((p) => p.policy_id)).toEqual([policy.policy_id]);
    const upd = await call<{ policy: SlaPolicy }>('PUT', `/sla-policies/${policy.policy_id}`, { name: 'Everyone (calendar)' });
    expect(upd.body.policy.name).toBe('Everyone (calendar)');
    expect((await call('PUT', '/sla-policies/sla_missing', { enabled: false })).status).toBe(404);
  });

  it('a customer message starts the first-response and resolution clocks and arms their wake-ups', async () => {
    const before = Date.now();
    await rt.postWebhook(inboundText(rt.phone, '15550007777', 'Hello, my parcel is late', { name: 'Bea' }));
    const chat = await eventually(async () => ((await chatOf())?.sla?.first_response ? await chatOf() : null), 20_000, 'the SLA starts');
    const fr = chat.sla!.first_response!;
    expect(fr.due_at - fr.started_at).toBe(30 * 60_000);
    expect(fr.near_at! - fr.started_at).toBe(15 * 60_000);
    expect(fr.started_at).toBeGreaterThanOrEqual(before - 5_000);
    expect(chat.sla!.resolution!.due_at - chat.sla!.resolution!.started_at).toBe(240 * 60_000);
    expect(chat.sla!.next_response ?? null).toBeNull();
    expect(wakeups().map((x) => `${x.w.target}:${x.w.phase}`).sort()).toEqual(['first_response:breach', 'first_response:near', 'resolution:breach', 'resolution:near']);
  });

  it('near breach runs the near actions; breach runs the breach actions once, records one breach and counts it in analytics', async () => {
    await fire((w) => w.target === 'first_response' && w.phase === 'near');
    const note = await eventually(async () => {
      const logs = (await call<{ logs: RuleLog[] }>('GET', `/logs/rules?chat_id=${enc(CHAT)}`)).body.logs;
      return logs.find((l) => (l.trigger as string) === 'sla.near_breach') ?? null;
    }, 10_000, 'near-breach log');
    expect(note.actions[0]).toMatchObject({ type: 'private_note', status: 'done' });
    expect((await chatOf()).sla!.first_response!.near_done).toBe(true);

    // delivered twice (at least once delivery): one breach, one count, the actions once
    await fire((w) => w.target === 'first_response' && w.phase === 'breach', true);
    await fire((w) => w.target === 'first_response' && w.phase === 'breach');
    const chat = await chatOf();
    expect(chat.sla!.first_response!.breached_at).toBeGreaterThan(0);
    expect(chat.label_ids).toContain(breachLabel);
    expect(chat.assigned_to).toBe(rt.memberEmail);
    const list = await breaches();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ policy_id: policy.policy_id, target: 'first_response', chat_id: CHAT, due_at: chat.sla!.first_response!.due_at });
    // the breach counts on the day it was due (30 min after the message: the next day near midnight),
    // in the org's zone, so read the days around it
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const [from, to] = [day(Date.now() - 86_400_000), day(Date.now() + 86_400_000)];
    const report = await eventually(async () => {
      const r = (await call<AnalyticsReport>('GET', `/analytics?from=${from}&to=${to}`)).body;
      return r.totals.sla_breaches > 0 ? r : null;
    }, 10_000, 'analytics counts the breach');
    expect(report.totals.sla_breaches).toBe(1);
    const breakdown = (await call<{ phones: Array<{ phone_id: string; sla_breaches: number }> }>('GET', `/analytics/breakdown?from=${from}&to=${to}`)).body;
    expect(breakdown.phones.find((p) => p.phone_id === chat.phone_id)?.sla_breaches).toBe(1);
    const logs = (await call<{ logs: RuleLog[] }>('GET', `/logs/rules?chat_id=${enc(CHAT)}`)).body.logs.filter((l) => (l.trigger as string) === 'sla.breach');
    expect(logs).toHaveLength(1);
    expect(logs[0].actions.map((a) => a.status)).toEqual(['done', 'done']);
  });

  it('a team reply meets the response clocks (their wake-ups are moot); the next customer message starts a next response', async () => {
    const armedBefore = wakeups().length;
    await call('POST', `/chats/${enc(CHAT)}/messages`, { body: 'Sorry, looking into it now' });
    const met = await eventually(async () => ((await chatOf()).sla?.first_response?.met_at ? await chatOf() : null), 20_000, 'first response met');
    expect(met.sla!.first_response!.breached_at).toBeGreaterThan(0); // met late: stays breached in the report
    expect(wakeups().length).toBe(armedBefore); // its wake-ups were already fired

    await rt.postWebhook(inboundText(rt.phone, '15550007777', 'Any news?', { name: 'Bea' }));
    const next = await eventually(async () => ((await chatOf()).sla?.next_response ? await chatOf() : null), 20_000, 'next response starts');
    expect(next.sla!.next_response!.due_at - next.sla!.next_response!.started_at).toBe(20 * 60_000);
    expect(wakeups().filter((x) => x.w.target === 'next_response')).toHaveLength(2);
    await call('POST', `/chats/${enc(CHAT)}/messages`, { body: 'It ships today' });
    await eventually(async () => ((await chatOf()).sla?.next_response?.met_at ? true : null), 20_000, 'next response met');
    // the reply cancelled the next response's wake-ups
    await eventually(async () => wakeups().filter((x) => x.w.target === 'next_response').length === 0 || null, 10_000, 'next-response wake-ups cancelled');
  });

  it('a moot wake-up (the clock was met) changes nothing; a close ends the SLA and its resolution wake-ups are cancelled', async () => {
    // a stale wake-up of the met next-response clock, delivered anyway
    const chat = await chatOf();
    const stale: SlaWakeup = { kind: 'sla', org_id: rt.orgId, chat_id: CHAT, target: 'next_response', phase: 'breach', started_at: chat.sla!.next_response!.started_at, policy_id: policy.policy_id };
    await enqueue('rule-actions', JSON.stringify(stale));
    await rt.idle();
    expect(await breaches()).toHaveLength(1);

    const res = await call('POST', '/chats/close', { chat_ids: [CHAT], is_closed: true, type: 'all' });
    expect(res.status).toBe(200);
    const closed = await eventually(async () => ((await chatOf()).sla?.ended_at ? await chatOf() : null), 20_000, 'the SLA ends');
    expect(closed.sla!.resolution!.met_at).toBe(closed.sla!.ended_at);
    await eventually(async () => wakeups().length === 0 || null, 10_000, 'resolution wake-ups cancelled');
    expect(await breaches()).toHaveLength(1);
  });

  it('snoozing pauses the SLA (wake-ups cancelled, a stale one moot); waking resumes it with the due times moved by the pause, armed again', async () => {
    const P = '15550007779@c.us';
    const chatP = async () => (await call<{ chat: Chat }>('GET', `/chats/${enc(P)}`)).body.chat;
    const ofP = () => wakeups().filter((x) => x.w.chat_id === P);
    await rt.postWebhook(inboundText(rt.phone, '15550007779', 'Where is my refund?', { name: 'Pia' }));
    const started = await eventually(async () => ((await chatP())?.sla?.first_response ? await chatP() : null), 20_000, 'the SLA starts');
    const before = started.sla!.first_response!;
    await eventually(async () => ofP().length === 4 || null, 10_000, 'four wake-ups armed');
    const oldBreach = ofP().find((x) => x.w.target === 'first_response' && x.w.phase === 'breach')!.w;
    expect(oldBreach.at).toBe(before.due_at);

    expect((await call('POST', '/chats/snooze', { chat_ids: [P], snooze_until: Date.now() + 3_600_000 })).status).toBe(200);
    const paused = await eventually(async () => ((await chatP()).sla?.paused_at ? await chatP() : null), 20_000, 'the SLA pauses');
    expect(paused.sla!.first_response!.due_at).toBe(before.due_at);
    await eventually(async () => ofP().length === 0 || null, 10_000, 'its wake-ups cancelled');
    // a wake-up delivered anyway while paused changes nothing
    await enqueue('rule-actions', JSON.stringify(oldBreach));
    await rt.idle();
    expect((await chatP()).sla!.first_response!.breached_at).toBeNull();

    expect((await call('POST', '/chats/snooze', { chat_ids: [P], snooze_until: null })).status).toBe(200);
    const resumed = await eventually(async () => ((await chatP()).sla && (await chatP()).sla!.paused_at == null ? await chatP() : null), 20_000, 'the SLA resumes');
    const after = resumed.sla!.first_response!;
    const pausedFor = after.due_at - before.due_at; // calendar policy: exactly the paused time
    expect(pausedFor).toBeGreaterThan(0);
    expect(after.started_at).toBe(before.started_at);
    expect(resumed.sla!.resolution!.due_at - pausedFor).toBe(started.sla!.resolution!.due_at);
    expect(after.near_at! - pausedFor).toBe(before.near_at);
    await eventually(async () => ofP().length === 4 || null, 10_000, 'armed again');
    expect(ofP().find((x) => x.w.target === 'first_response' && x.w.phase === 'breach')!.w.at).toBe(after.due_at);
    // the wake-up armed for the old due time (its cancel lost) is moot: no breach
    await enqueue('rule-actions', JSON.stringify(oldBreach));
    await rt.idle();
    expect((await chatP()).sla!.first_response!.breached_at).toBeNull();
    expect((await breaches()).filter((b) => b.chat_id === P)).toHaveLength(0);
  });

  it('the breach report pages and filters; a deleted policy is gone', async () => {
    expect((await call<{ breaches: SlaBreach[] }>('GET', '/logs/sla?target=resolution')).body.breaches).toHaveLength(0);
    expect((await call<{ breaches: SlaBreach[] }>('GET', '/logs/sla?target=first_response&limit=1')).body.breaches).toHaveLength(1);
    const bad = await call<ApiError>('GET', '/logs/sla?target=lunch');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details?.[0].field).toContain('target');
    expect((await call('DELETE', `/sla-policies/${policy.policy_id}`)).status).toBe(200);
    expect((await call<{ policies: SlaPolicy[] }>('GET', '/sla-policies')).body.policies).toHaveLength(0);
  });
});

describe('delayed rule actions in business minutes (issue 17 §3)', () => {
  it('a delay of 90 business minutes is due 90 minutes of the org’s open hours later; the sentence says so', async () => {
    const res = await call<{ rule: { rule_id: string } }>('POST', '/rules', {
      name: 'Label later',
      trigger: { type: 'message.received' },
      conditions: { match: 'all', items: [{ field: 'message.body', op: 'contains', value: 'delay-test' }] },
      actions: [{ type: 'add_label', label_id: breachLabel, delay_minutes: 90, business_hours: true }],
    });
    expect(res.status).toBe(201);
    await rt.postWebhook(inboundText(rt.phone, '15550008888', 'delay-test please', { name: 'Dee' }));
    const cmd = await eventually(async () => [...armed.values()].find((c) => (JSON.parse(c.body) as RuleWakeup).kind === 'action' && (JSON.parse(c.body) as RuleWakeup).rule_id === res.body.rule.rule_id) ?? null, 20_000, 'the delayed action is armed');
    const w = JSON.parse(cmd.body) as RuleWakeup;
    const expected = dueAfter(await getOrgClock(rt.orgId), w.anchor, 90 * 60_000, true);
    expect(Math.abs(cmd.at - expected)).toBeLessThan(2_000);
    const pending = (await call<{ pending: Array<{ summary: string }> }>('GET', `/chats/${enc('15550008888@c.us')}/rule-pending`)).body.pending;
    expect(pending[0].summary).toContain('in 90 business min');
  });
});

describe('an SLA policy whose owner lost the rights it acts with is paused with the reason (issue 42 §1)', () => {
  const logsOf = async (policyId: string) => (await call<{ logs: RuleLog[] }>('GET', `/logs/rules?rule_id=${enc(`sla:${policyId}`)}`)).body.logs;
  const policiesNow = async () => (await call<{ policies: SlaPolicy[] }>('GET', '/sla-policies')).body.policies;

  it('at run time: a customer message pauses a removed member’s policy (the SLA log says why) and starts no clock under it; /rules shows the reason', async () => {
    // Arrange: a policy whose owner is no longer a member of the workspace (stored as the owner left it)
    const now = Date.now();
    const policy_id = 'sla_planted_gone_owner';
    await db()
      .entities.slaPolicy.create({ org_id: rt.orgId, policy_id, name: 'Gone owner', enabled: true, scope: { label_ids: [], phone_ids: [] }, targets: { first_response_minutes: 30 }, business_hours: false, near_breach_percent: 50, near_breach_actions: [], breach_actions: [{ type: 'add_label', label_id: breachLabel }], created_by: 'gone@example.com', created_at: now, updated_by: 'gone@example.com', updated_at: now, owner: 'gone@example.com', owner_role: 'member' } as never)
      .go();
    forgetSlaPolicies(rt.orgId);
    // Act
    await rt.postWebhook(inboundText(rt.phone, '15550006666', 'Anyone there?', { name: 'Gus' }));
    // Assert: paused by the engine (its log row), before anyone read the list
    const log = await eventually(async () => (await logsOf(policy_id)).find((l) => l.outcome === 'skipped') ?? null, 20_000, 'the pause in the SLA log');
    expect(log.reasons[0]).toMatch(/^policy paused: its owner gone@example.com is no longer a member/);
    expect(log.rule_name).toBe('SLA: Gone owner');
    const p = (await policiesNow()).find((x) => x.policy_id === policy_id)!;
    expect(p).toMatchObject({ enabled: false, owner: 'gone@example.com', paused_reason: 'its owner gone@example.com is no longer a member of this workspace' });
    expect(p.paused_at).toBeGreaterThanOrEqual(now);
    await rt.idle();
    expect((await call<{ chat: Chat }>('GET', `/chats/${enc('15550006666@c.us')}`)).body.chat.sla?.first_response ?? null).toBeNull();
    // paused once: the next message writes no second row
    await rt.postWebhook(inboundText(rt.phone, '15550006666', 'Hello?', { name: 'Gus' }));
    await rt.idle();
    expect((await logsOf(policy_id)).filter((l) => l.outcome === 'skipped')).toHaveLength(1);
  });

  it('on a wake-up: a clock armed while the owner could act breaches into a pause, not into actions or a breach row; turning it on again clears the reason', async () => {
    // Arrange: an admin's policy starts a clock, then its owner (as stored) is demoted
    const created = await call<{ policy: SlaPolicy }>('POST', '/sla-policies', { name: 'Demoted owner', targets: { first_response_minutes: 30 }, business_hours: false, near_breach_percent: null, breach_actions: [{ type: 'add_label', label_id: breachLabel }] });
    const policyId = created.body.policy.policy_id;
    await rt.postWebhook(inboundText(rt.phone, '15550005555', 'My order?', { name: 'Dora' }));
    await eventually(async () => wakeups().find((x) => x.w.chat_id === '15550005555@c.us' && x.w.phase === 'breach' && x.w.policy_id === policyId) ?? null, 20_000, 'the breach wake-up is armed');
    await db().entities.slaPolicy.patch({ org_id: rt.orgId, policy_id: policyId }).set({ owner: rt.memberEmail, owner_role: 'admin' }).go();
    forgetSlaPolicies(rt.orgId);
    const before = (await breaches()).length;
    // Act
    await fire((w) => w.chat_id === '15550005555@c.us' && w.phase === 'breach');
    // Assert
    const log = await eventually(async () => (await logsOf(policyId)).find((l) => l.outcome === 'skipped') ?? null, 10_000, 'the pause in the SLA log');
    expect(log.reasons[0]).toBe(`policy paused: its owner ${rt.memberEmail} is no longer an admin`);
    expect((await breaches()).length).toBe(before);
    expect((await call<{ chat: Chat }>('GET', `/chats/${enc('15550005555@c.us')}`)).body.chat.label_ids ?? []).not.toContain(breachLabel);
    expect((await policiesNow()).find((x) => x.policy_id === policyId)).toMatchObject({ enabled: false, paused_reason: `its owner ${rt.memberEmail} is no longer an admin` });
    const resumed = await call<{ policy: SlaPolicy }>('PUT', `/sla-policies/${policyId}`, { enabled: true });
    expect(resumed.body.policy).toMatchObject({ enabled: true, owner: rt.adminEmail, paused_reason: null, paused_at: null });
  });
});
