import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { schedulerPort, setSchedulerPort, type ScheduledCommand } from '../../shared/ports/scheduler.ts';
import { enqueue } from '../../shared/ports/commands.ts';
import { db } from '../../shared/db/service.ts';
import { forgetOrgPlanState } from '../../shared/plan/gate.ts';
import { ENTITLEMENT_MESSAGES } from '../../shared/plan/entitlements.rules.ts';
import { runBroadcastStep } from '../../shared/broadcast/broadcast.ts';
import type { RuleLog } from '../../shared/rules/rule.schemas.ts';
import type { Broadcast } from '../../shared/broadcast/broadcast.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';

/**
 * Where an ended subscription or trial shows (issue 42 §2): the entitlement gate's refusals of
 * automation are written where the admin looks, not only in the process log —
 * - the rules consumer: one row per event in the rules log (/rules Log tab) with `plan.refused`, the
 *   code and the rules not evaluated;
 * - the AI agent: a decisions-log row with the code as the reason (a customer message not taken up,
 *   a waiting reply cancelled);
 * - a broadcast paused because its credits read 0 after the end says why (`pause_reason`), not
 *   "out of credits".
 * One runtime; the plan state is set on the org row as the billing events write it. Wake-ups are
 * held (injected scheduler) and fired by the test.
 */
let rt: TestRuntime;
let admin: string;
const DAY = 86_400_000;
const enc = encodeURIComponent;
const held = new Map<string, ScheduledCommand>();
const heldFor = (queue: string, pick: (body: Record<string, unknown>) => boolean) => [...held.values()].filter((c) => c.queue === queue && pick(JSON.parse(c.body) as Record<string, unknown>));
const logsOf = async (q: string) => (await rt.orgJson<{ logs: RuleLog[] }>(admin, `/logs/rules?${q}`)).logs;
type Decision = { decision_id: string; outcome: string; reason: string | null };
const decisions = async () => (await rt.orgJson<{ decisions: Decision[] }>(admin, '/ai/decisions')).decisions;
const customerSays = async (number: string, text: string) => rt.postWebhook(inboundText(rt.phone, number, text, { name: 'Pat', id: newWamid() }));

/** Put the org on a plan state (the org row's plan fields, as the billing events write them). */
async function setState(s: 'pro' | 'canceled' | 'expired trial'): Promise<void> {
  const now = Date.now();
  const period = Math.floor((now + 30 * DAY) / 1000);
  const set =
    s === 'expired trial'
      ? { subscription_status: 'trialing', is_free_trial: true, is_enterprise: false, trial_ends_at: now - 60_000 }
      : { subscription_status: s === 'pro' ? 'active' : 'canceled', is_free_trial: false, is_enterprise: false, org_plan: { plan_id: 'pro', current_period_end: period } };
  const patch = db().entities.organization.patch({ org_id: rt.orgId }).set(set as never);
  await (s === 'expired trial' ? patch.remove(['org_plan'] as never) : patch).go();
  forgetOrgPlanState(rt.orgId);
}

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  // every scheduled command is held: the test fires the ones it means (no sleeps)
  const real = await schedulerPort();
  setSchedulerPort({ schedule: async (cmd) => void held.set(cmd.name, cmd), cancel: async (name) => (held.delete(name) ? undefined : real.cancel(name)) });
  await setState('pro');
}, 120_000);

afterAll(async () => {
  setSchedulerPort(undefined);
  await rt?.cleanup();
});

describe('rules: a refused event is in the rules log with plan.refused and the code', () => {
  let noteRule = '';
  let labelRule = '';
  it('after `canceled`: one row for the event, under the one rule it would have evaluated', async () => {
    // Arrange
    const created = await rt.orgCall<{ rule: { rule_id: string } }>(admin, 'POST', '/rules', { name: 'Note on every message', trigger: { type: 'message.received' }, actions: [{ type: 'private_note', body: 'refusal-rule-note' }] });
    expect(created.status).toBe(201);
    noteRule = created.body.rule.rule_id;
    await setState('canceled');
    // Act
    await customerSays('15550004001', 'after the end');
    // Assert
    const row = await eventually(async () => (await logsOf(`rule_id=${noteRule}`)).find((l) => l.chat_id === '15550004001@c.us') ?? null, 20_000, 'the refusal in the rules log');
    expect(row).toMatchObject({ outcome: 'skipped', rule_name: 'Note on every message', trigger: 'message.received', actions: [] });
    expect(row.reasons).toEqual(['plan.refused: subscription_ended', ENTITLEMENT_MESSAGES.subscription_ended]);
    // nothing acted
    const messages = (await rt.orgJson<{ messages: Array<{ body?: string }> }>(admin, `/chats/${enc('15550004001@c.us')}/messages`)).messages;
    expect(messages.some((m) => m.body === 'refusal-rule-note')).toBe(false);
  });

  it('after a trial ended: one row for the event naming every rule it would have evaluated (`*`), not one write per rule', async () => {
    // Arrange: a second rule on the same trigger, made while the plan allowed it
    await setState('pro');
    const created = await rt.orgCall<{ rule: { rule_id: string } }>(admin, 'POST', '/rules', { name: 'Label every message', trigger: { type: 'message.received' }, actions: [{ type: 'private_note', body: 'second-rule-note' }] });
    expect(created.status).toBe(201);
    labelRule = created.body.rule.rule_id;
    await setState('expired trial');
    // Act
    await customerSays('15550004002', 'after the trial');
    // Assert
    const rows = await eventually(async () => {
      const r = (await logsOf(`chat_id=${enc('15550004002@c.us')}`)).filter((l) => l.reasons[0]?.startsWith('plan.refused'));
      return r.length ? r : null;
    }, 20_000, 'the refusal in the rules log');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rule_id: '*', rule_name: '2 rules', outcome: 'skipped' });
    expect(rows[0]!.reasons.slice(0, 2)).toEqual(['plan.refused: trial_ended', ENTITLEMENT_MESSAGES.trial_ended]);
    expect(rows[0]!.reasons.slice(2).sort()).toEqual(['not evaluated: Label every message', 'not evaluated: Note on every message']);
    expect(labelRule).not.toBe('');
  });

  it('a rule’s wake-up refused after the end is in that rule’s log', async () => {
    // Arrange: a follow-up armed while on Pro
    await setState('pro');
    const created = await rt.orgCall<{ rule: { rule_id: string } }>(admin, 'POST', '/rules', { name: 'Follow up', trigger: { type: 'message.sent' }, actions: [{ type: 'follow_up', after_minutes: 30, body: 'following up', repeat: 1 }] });
    expect(created.status).toBe(201);
    const ruleId = created.body.rule.rule_id;
    await customerSays('15550004003', 'hello');
    await eventually(async () => ((await rt.orgCall(admin, 'POST', `/chats/${enc('15550004003@c.us')}/messages`, { body: 'we are on it' })).status === 201 ? true : null), 10_000, 'a team reply');
    const wake = await eventually(async () => {
      const h = heldFor('rule-actions', (b) => b.rule_id === ruleId);
      return h.length ? h : null;
    }, 20_000, 'the follow-up armed');
    await setState('canceled');
    // Act
    for (const c of wake) await enqueue(c.queue, c.body);
    await rt.idle();
    // Assert
    const row = await eventually(async () => (await logsOf(`rule_id=${ruleId}`)).find((l) => l.reasons[0] === 'plan.refused: subscription_ended') ?? null, 10_000, 'the refused wake-up in the rule log');
    expect(row).toMatchObject({ outcome: 'skipped', chat_id: '15550004003@c.us' });
  });
});

describe('AI agent: a refused message or reply is in the AI decisions log with the code', () => {
  it('a customer message after the end is a skipped decision `subscription_ended`; a reply waiting across a trial end is cancelled `trial_ended`', async () => {
    // Arrange: the agent on, with a response delay (the reply waits on the ai-replies queue)
    await setState('pro');
    const on = await rt.orgCall(admin, 'PUT', '/ai/settings', { enabled: true, nickname: 'Ava', response_delay_seconds: 600, pause_after_human_minutes: 30 });
    expect(on.status).toBe(200);
    await customerSays('15550004011', 'When do you open?');
    const chat = await eventually(async () => {
      const c = (await rt.orgJson<{ chat: Chat }>(admin, `/chats/${enc('15550004011@c.us')}`)).chat;
      return c?.ai_metadata?.pending ? c : null;
    }, 20_000, 'the reply waits');
    const waiting = chat.ai_metadata!.pending!.unique_id;
    const reply = await eventually(async () => {
      const h = heldFor('ai-replies', (b) => b.unique_id === waiting);
      return h.length ? h : null;
    }, 10_000, 'the delayed reply held');

    // Act 1: the subscription ends, a customer writes
    await setState('canceled');
    await customerSays('15550004012', 'Are you there?');
    // Assert 1
    const skipped = await eventually(async () => (await decisions()).find((d) => d.outcome === 'skipped' && d.reason === 'subscription_ended') ?? null, 20_000, 'the skipped decision');
    expect(skipped.decision_id).not.toBe(waiting);

    // Act 2: (as if it had been a trial that ended) the waiting reply's wake-up comes
    await setState('expired trial');
    for (const c of reply) await enqueue(c.queue, c.body);
    await rt.idle();
    // Assert 2
    await eventually(async () => ((await decisions()).find((d) => d.decision_id === waiting && d.outcome === 'cancelled' && d.reason === 'trial_ended') ? true : null), 10_000, 'the waiting reply cancelled with the reason');
  });
});

describe('broadcasts: paused after the end says why, not "out of credits"', () => {
  it('a scheduled broadcast that starts after `canceled` is paused with pause_reason subscription_ended; a person’s resume clears it', async () => {
    // Arrange: a broadcast scheduled while on Pro, to a chat whose service window is open
    await setState('pro');
    await rt.orgCall(admin, 'PUT', '/ai/settings', { enabled: false });
    await customerSays('15550004021', 'hi there');
    await eventually(async () => ((await rt.orgJson<{ chat: Chat }>(admin, `/chats/${enc('15550004021@c.us')}`)).chat ? true : null), 20_000, 'the chat');
    const created = await rt.orgCall<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'After the end', audience: { kind: 'chats', chat_ids: ['15550004021@c.us'] }, content: { body: 'sale today' }, send_at: Date.now() + 3_600_000, options: { pace_ms: 20 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.broadcast.broadcast_id;
    const wake = await eventually(async () => {
      const h = heldFor('broadcasts', (b) => b.broadcast_id === id);
      return h.length ? h : null;
    }, 20_000, 'the broadcast’s wake-up at its send time');
    await setState('canceled');
    // Act: its send time comes (injected clock)
    await runBroadcastStep(JSON.parse(wake[0]!.body) as { org_id: string; broadcast_id: string; seq: number }, { now: () => Date.now() + 2 * 3_600_000, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), rand: Math.random, budgetMs: 5_000 });
    // Assert
    const b = (await rt.orgJson<{ broadcast: Broadcast }>(admin, `/broadcasts/${id}`)).broadcast;
    expect(b, JSON.stringify(b)).toMatchObject({ status: 'paused', pause_reason: 'subscription_ended' });
    expect(b.stats.sent).toBe(0);
    // renewed, a person resumes it: the engine's reason no longer shows
    await setState('pro');
    const resumed = await rt.orgCall<{ broadcast: Broadcast }>(admin, 'POST', `/broadcasts/${id}/actions`, { action: 'resume' });
    expect(resumed.status).toBe(200);
    expect(resumed.body.broadcast.pause_reason).toBeNull();
    const row = (await db().entities.broadcast.get({ org_id: rt.orgId, broadcast_id: id }).go()).data as { pause_reason?: string } | null;
    expect(row?.pause_reason).toBeUndefined();
  });
});
