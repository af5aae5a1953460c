import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedIsolationWorld, type IsolationWorld } from '../factories/isolation-world.ts';
import { startReceiver, type Receiver } from '../factories/webhook-receiver.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { schedulerPort, setSchedulerPort, type ScheduledCommand } from '../../shared/ports/scheduler.ts';
import { enqueue } from '../../shared/ports/commands.ts';
import { db } from '../../shared/db/service.ts';
import { forgetRules } from '../../shared/rules/rules.ts';
import { generateSecret } from '../../shared/webhooks/ids.ts';
import { runBroadcastStep } from '../../shared/broadcast/broadcast.ts';
import { signStripePayload, stripeShapedEvent } from '../../shared/plan/billing-local.ts';
import type { Rule, RuleLog } from '../../shared/rules/rule.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * The isolation suite's *effects* dimension (issue 42 §1, §3, §4). Automation a member owns — rules
 * (send a message, call a webhook, assign, label, note, task, notify), follow-ups, SLA policies,
 * scheduled messages and broadcasts — runs as that member, a member WITHOUT access to chat R
 * (tests/factories/isolation-world.ts; `mask_phone_numbers` on). What reaches the outside is
 * observed where it lands: the Graph stand-in (`rt.graph.sent`: what WhatsApp would deliver), the
 * webhook receiver (tests/factories/webhook-receiver.ts), the member's socket, and the stored rows
 * the automation writes (R's chat row, notes, tasks, notifications). The expected count outside the
 * member's access is 0 for every row; chat O (which the member may see) is the control that proves
 * each automation did run. Payloads a member's automation writes are scanned byte for byte for a
 * customer's full number. Time: the scheduler port is wrapped so wake-ups are held and fired by the
 * test (no sleeps); the broadcast's send time is reached with an injected clock.
 */
let rt: TestRuntime;
let w: IsolationWorld;
let receiver: Receiver;
let memberSocket: { ws: WebSocket; frames: string[] };
const held = new Map<string, ScheduledCommand>();
const enc = encodeURIComponent;
const X_NUMBER = '15550009011';
const CHAT_X = `${X_NUMBER}@c.us`;
const L_NUMBER = '15550009012';
const CHAT_L = `${L_NUMBER}@c.us`;

/** Rows of the closing note: one per automation × surface, with what landed outside the member's access (must be 0) and inside (control). */
const rows: Array<{ automation: string; surface: string; outside: number; inside: number | null }> = [];
const row = (automation: string, surface: string, outside: number, inside: number | null = null) => rows.push({ automation, surface, outside, inside });

type ApiError = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const call = <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown) => rt.orgCall<T>(token, method, path, json);
const ok = async <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown): Promise<T> => {
  const r = await call<T>(token, method, path, json);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};
/** Texts the Graph stand-in was asked to deliver to `number` (what the customer would get). */
const textsTo = (number: string): string[] =>
  rt.graph.sent.filter((s) => (s.body as { to?: string }).to === number).map((s) => (s.body as { text?: { body?: string } }).text?.body ?? JSON.stringify(s.body));
const countTo = (number: string, marker: string) => textsTo(number).filter((t) => t.includes(marker)).length;
const customerWrites = async (number: string, body: string, name: string) => {
  const r = await rt.postWebhook(inboundText(rt.phone, number, body, { name, id: newWamid() }));
  expect(r.status).toBe(200);
  await rt.idle();
};
/** The member's notification rows as stored (not the API's masked view): what the rule wrote. */
const storedNotifications = async () => (await db().entities.notification.query.byRecipient({ org_id: rt.orgId, email: rt.memberEmail }).go({ pages: 'all' })).data as unknown[];
const restrict = (chatId: string) => ok(w.admin, 'PUT', `/chats/${enc(chatId)}/access`, { chat_access: { [rt.adminEmail]: true, [rt.memberEmail]: false } });
const logsOf = async (q: string) => (await ok<{ logs: RuleLog[] }>(w.admin, 'GET', `/logs/rules?${q}`)).logs;
const rulesOf = async () => (await ok<{ rules: Rule[] }>(w.admin, 'GET', '/rules')).rules;
const heldFor = (queue: string, pick: (body: Record<string, unknown>) => boolean) => [...held.values()].filter((c) => c.queue === queue && pick(JSON.parse(c.body) as Record<string, unknown>));
/** Fire held wake-ups (what the scheduler does when they are due), then let everything settle. */
async function fire(cmds: ScheduledCommand[]): Promise<void> {
  for (const c of cmds) {
    held.delete(c.name);
    await enqueue(c.queue, c.body);
  }
  await rt.idle();
}

async function setPlan(planId: 'starter' | 'pro', licences: number): Promise<void> {
  const ev = stripeShapedEvent('paid', { org_id: rt.orgId, plan_id: planId, licences });
  const secret = rt.env.STRIPE_WEBHOOK_SECRET ?? process.env.STRIPE_WEBHOOK_SECRET!;
  const res = await fetch(`${rt.url}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(ev.payload, secret) }, body: ev.payload });
  expect(res.status).toBe(200);
}

/** A rule row as rows were stored before owners existed (no `owner`): what a member could make before issue 42. */
async function plantRule(name: string, createdBy: string, actions: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  const now = Date.now();
  const rule_id = `rule_planted_${name.replace(/\W/g, '').toLowerCase()}`;
  await db()
    .entities.rule.create({ org_id: rt.orgId, rule_id, name, trigger: { type: 'message.received' }, conditions: { match: 'all', items: [] }, actions, enabled: true, version: 1, secret: generateSecret(), created_by: createdBy, created_at: now, updated_by: createdBy, updated_at: now, ...extra } as never)
    .go();
  forgetRules(rt.orgId);
  return rule_id;
}

let memberSend = '';
let memberChatActions = '';
let memberFollowUp = '';
let legacyHook = '';
let goneOwner = '';
let demotedOwner = '';
let adminHook = '';
let memberSla = '';

beforeAll(async () => {
  process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK = '1';
  // every automation of this file acts in O: the per-chat rate limit (30 a minute) is not what is tested here
  process.env.RULES_CHAT_RATE_PER_MINUTE = '1000';
  rt = await startTestRuntime();
  const real = await schedulerPort();
  setSchedulerPort({
    schedule: async (cmd) => void held.set(cmd.name, cmd),
    cancel: async (name) => (held.delete(name) ? undefined : real.cancel(name)),
  });
  w = await seedIsolationWorld(rt);
  receiver = await startReceiver();
  // Pro with 10 licences: 20 rules (spec §9), through a verified billing event like production
  await setPlan('pro', 10);
  // X and L: chats the member may see (for now), opened by their customers
  await customerWrites(X_NUMBER, 'hello from X', 'Xena');
  await customerWrites(L_NUMBER, 'hello from L', 'Lou');
  memberSocket = await new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${enc(w.member)}&org_id=${enc(w.orgId)}`);
    const frames: string[] = [];
    ws.on('message', (d) => frames.push(String(d)));
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
    ws.on('error', () => undefined);
  });
}, 240_000);

afterAll(async () => {
  setSchedulerPort(undefined);
  delete process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK;
  delete process.env.RULES_CHAT_RATE_PER_MINUTE;
  if (rows.length) {
    const lines = rows.map((r) => `${r.automation} → ${r.surface}: ${r.outside} outside the owner's access${r.inside === null ? '' : `, ${r.inside} inside (control)`}`);
    console.log(`isolation effects (${rows.length} rows, ${rows.filter((r) => r.outside > 0).length} with effects outside access):\n${lines.join('\n')}`);
  }
  memberSocket?.ws.close();
  await receiver?.close();
  await rt?.cleanup();
});

describe('a member’s automation acts with the member’s rights (issue 42 §1)', () => {
  it('a member may not make a "call webhook" rule (403 with the field), an admin may', async () => {
    adminHook = (await ok<{ rule: Rule }>(w.admin, 'POST', '/rules', { name: 'Admin hook', trigger: { type: 'message.received' }, actions: [{ type: 'webhook', url: `${receiver.url}/admin` }] })).rule.rule_id;
    const refused = await call<ApiError>(w.member, 'POST', '/rules', { name: 'Leak', trigger: { type: 'message.received' }, actions: [{ type: 'webhook', url: `${receiver.url}/member` }] });
    row('rule of a member: call webhook', 'create (HTTP)', refused.status === 403 ? 0 : 1);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('rules.action_forbidden');
    expect(refused.body.error.details?.[0]).toMatchObject({ field: 'actions.0.type' });
  });

  it('sets up the member’s automation: rules, an SLA policy (and its webhook-free check), a legacy webhook rule, rules of a removed and a demoted owner', async () => {
    const rule = (name: string, trigger: Record<string, unknown>, actions: unknown[]) => ok<{ rule: Rule }>(w.member, 'POST', '/rules', { name, trigger, actions });
    memberSend = (await rule('Member auto-reply', { type: 'message.received' }, [{ type: 'send_message', body: 'EFX-SEND auto reply for {{chat.name}}' }])).rule.rule_id;
    const actions = await rule('Member chat actions', { type: 'message.received' }, [
      { type: 'add_label', label_id: w.labelId },
      { type: 'assign', mode: 'member', member: rt.memberEmail },
      { type: 'private_note', body: 'EFX-NOTE {{chat.name}} {{contact.number}} {{message.body}}' },
      { type: 'create_task', title: 'EFX-TASK {{chat.name}} {{contact.number}}' },
      { type: 'notify', member: rt.memberEmail, text: 'EFX-NOTIFY {{chat.name}} {{contact.number}}' },
    ]);
    memberChatActions = actions.rule.rule_id;
    memberFollowUp = (await rule('Member follow-up', { type: 'message.sent' }, [{ type: 'follow_up', after_minutes: 30, body: 'EFX-FOLLOW following up on {{chat.name}}', repeat: 1 }])).rule.rule_id;
    memberSla = (
      await ok<{ policy: { policy_id: string } }>(w.member, 'POST', '/sla-policies', {
        name: 'Member SLA',
        targets: { first_response_minutes: 30 },
        business_hours: false,
        near_breach_percent: null,
        breach_actions: [
          { type: 'private_note', body: 'EFX-SLA {{chat.name}} {{contact.number}}' },
          { type: 'add_label', label_id: w.labelId },
        ],
      })
    ).policy.policy_id;
    // made before issue 42 (no owner on the row): a member's webhook rule, a rule of a member since removed, and one of an admin since demoted
    legacyHook = await plantRule('Legacy member hook', rt.memberEmail, [{ type: 'webhook', url: `${receiver.url}/legacy` }]);
    goneOwner = await plantRule('Gone owner', 'gone@test.chorus', [{ type: 'add_label', label_id: w.labelId }]);
    demotedOwner = await plantRule('Demoted owner', rt.memberEmail, [{ type: 'add_label', label_id: w.labelId }], { owner: rt.memberEmail, owner_role: 'admin' });
    expect(actions.rule.owner).toBe(rt.memberEmail);
  });

  let before: { chat: Chat };
  let framesBefore = 0;
  it('a customer writes in R and in O: the member’s auto-reply goes to O only; the log says why it did not match R', async () => {
    before = await ok<{ chat: Chat }>(w.admin, 'GET', `/chats/${enc(w.chatR)}`);
    framesBefore = memberSocket.frames.length;
    await customerWrites(w.rNumber, `${w.sentinel} EFX customer in R`, `${w.sentinel} Rita`);
    await customerWrites(w.oNumber, 'EFX customer in O', 'Olive');
    // control: the member's rules ran in O
    await eventually(async () => countTo(w.oNumber, 'EFX-SEND') > 0, 15_000, 'the member’s auto-reply in O');
    const sendInR = countTo(w.rNumber, 'EFX-SEND');
    row('rule of a member: send message', 'Graph stand-in', sendInR, countTo(w.oNumber, 'EFX-SEND'));
    expect(sendInR, 'auto-replies to R’s customer').toBe(0);

    // the log says why the rule did not match R
    const rLogs = await eventually(async () => {
      const l = await logsOf(`chat_id=${enc(w.chatR)}&rule_id=${memberSend}`);
      return l.length ? l : null;
    }, 10_000, 'a log row of the member’s rule on R');
    expect(rLogs[0]!.outcome).toBe('not_matched');
    expect(rLogs[0]!.reasons.join(' ')).toMatch(/has no access to this chat/);
  });

  it('…and R’s chat row, thread, tasks and notifications get nothing of the member’s label, assign, note, task and notify actions (O does)', async () => {
    const after = await ok<{ chat: Chat }>(w.admin, 'GET', `/chats/${enc(w.chatR)}`);
    const rMsgs = (await ok<{ messages: Message[] }>(w.admin, 'GET', `/chats/${enc(w.chatR)}/messages`)).messages;
    const rTasks = (await ok<{ tasks: Array<{ title: string; associated_object_metadata?: { id?: string } | null }> }>(w.admin, 'GET', '/tasks?scope=all')).tasks;
    const notes = rMsgs.filter((m) => (m.body ?? '').includes('EFX-NOTE')).length;
    const labels = Number((after.chat.label_ids ?? []).length > (before.chat.label_ids ?? []).length);
    const assignee = Number(after.chat.assigned_to !== before.chat.assigned_to);
    const tasks = rTasks.filter((t) => t.title.includes('EFX-TASK') && t.title.includes(w.sentinel)).length;
    const notifications = (await ok<{ notifications: Array<{ title: string; body: string; chat_id: string | null }> }>(w.member, 'GET', '/notifications')).notifications;
    const rNotify = (await storedNotifications()).filter((n) => JSON.stringify(n).includes(w.sentinel) && JSON.stringify(n).includes('EFX-NOTIFY')).length;
    row('rule of a member: add label', "R's chat row", labels);
    row('rule of a member: assign', "R's chat row", assignee);
    row('rule of a member: private note', "R's thread", notes);
    row('rule of a member: create task', 'tasks linked to R', tasks);
    row('rule of a member: notify', "notifications about R", rNotify);
    expect({ labels, assignee, notes, tasks, rNotify }).toEqual({ labels: 0, assignee: 0, notes: 0, tasks: 0, rNotify: 0 });
    // control: the same actions happened in O
    const oMsgs = (await ok<{ messages: Message[] }>(w.admin, 'GET', `/chats/${enc(w.chatO)}/messages`)).messages;
    expect(oMsgs.some((m) => (m.body ?? '').includes('EFX-NOTE'))).toBe(true);
    expect(notifications.some((n) => n.body.includes('EFX-NOTIFY'))).toBe(true);
  });

  it('…and a member’s webhook rule made before owners sends nothing (the admin’s is org-level and gets R)', async () => {
    await eventually(async () => receiver.received.some((r) => r.path === '/admin' && r.body.includes(w.sentinel)), 10_000, 'the admin’s webhook rule on R (org-level)');
    const legacy = receiver.received.filter((r) => r.path === '/legacy');
    row('rule of a member (made before owners): call webhook', 'webhook receiver', legacy.filter((r) => r.body.includes(w.sentinel) || r.body.includes(w.rNumber)).length, legacy.length);
    expect(legacy.length, 'requests of the member’s legacy webhook rule').toBe(0);
  });

  it('…and the member’s socket gets nothing of R and no full number (raw bytes)', async () => {
    const frames = memberSocket.frames.slice(framesBefore);
    const leaked = frames.filter((f) => f.includes(w.sentinel) || [w.rNumber, w.oNumber, w.uNumber].some((n) => f.includes(n)));
    row('rules of a member (all actions)', 'member socket (sentinel or full number)', leaked.length, frames.length);
    expect(leaked.map((f) => f.slice(0, 200))).toEqual([]);
  });

  it('what a member’s rule writes is masked as the member sees it (raw byte scan: no full number)', async () => {
    // what the rule wrote (texts as stored, read by the admin: never masked on the way out), not the rows' keys
    const oMsgs = (await ok<{ messages: Message[] }>(w.admin, 'GET', `/chats/${enc(w.chatO)}/messages`)).messages;
    const notes = oMsgs.filter((m) => (m.body ?? '').includes('EFX-NOTE')).map((m) => m.body);
    const tasks = (await ok<{ tasks: Array<{ title: string }> }>(w.admin, 'GET', '/tasks?scope=all')).tasks.filter((t) => t.title.includes('EFX-TASK')).map((t) => t.title);
    const notified = (await storedNotifications()).map((n) => n as { title?: string; body?: string }).filter((n) => (n.body ?? '').includes('EFX-NOTIFY')).map((n) => [n.title, n.body]);
    const bytes = JSON.stringify([notes, tasks, notified]);
    const full = [w.rNumber, w.oNumber, w.uNumber].filter((n) => bytes.includes(n));
    row('rules of a member: note, task, notify', `written texts (${bytes.length} bytes)`, full.length, notes.length + tasks.length + notified.length);
    expect(full, 'full numbers in what the member’s rule wrote').toEqual([]);
    expect([notes.length, tasks.length, notified.length], 'control: the rule wrote a note, a task and a notification in O').toEqual([1, 1, 1]);
  });

  it('rules of a removed owner and of a demoted admin are paused with the reason (log and /rules), never run', async () => {
    const rules = await rulesOf();
    const gone = rules.find((r) => r.rule_id === goneOwner)!;
    const demoted = rules.find((r) => r.rule_id === demotedOwner)!;
    const legacy = rules.find((r) => r.rule_id === legacyHook)!;
    expect(gone.enabled).toBe(false);
    expect(gone.paused_reason).toMatch(/no longer a member/);
    expect(demoted.paused_reason).toMatch(/no longer an admin/);
    expect(legacy.paused_reason).toMatch(/call webhook/);
    // paused at run time by the engine (its log row), not only when /rules was read
    const log = await logsOf(`rule_id=${goneOwner}`);
    expect(log.some((l) => l.outcome === 'skipped' && l.reasons.join(' ').includes('rule paused'))).toBe(true);
    row('rule of a removed owner', 'actions run', 0);
  });

  it('a follow-up armed while the member could see X does nothing once X is restricted; none is armed in R', async () => {
    await ok(w.admin, 'POST', `/chats/${enc(CHAT_X)}/messages`, { body: 'the admin writes in X' });
    await ok(w.admin, 'POST', `/chats/${enc(w.chatR)}/messages`, { body: 'the admin writes in R' });
    await rt.idle();
    const armedX = await eventually(async () => {
      const h = heldFor('rule-actions', (b) => b.kind === 'follow_up' && b.chat_id === CHAT_X && b.rule_id === memberFollowUp);
      return h.length ? h : null;
    }, 10_000, 'the follow-up armed in X');
    const armedR = heldFor('rule-actions', (b) => b.kind === 'follow_up' && b.chat_id === w.chatR && b.rule_id === memberFollowUp);
    await restrict(CHAT_X);
    await fire(armedX);
    const sent = countTo(X_NUMBER, 'EFX-FOLLOW');
    row('follow-up of a member', 'wake-ups armed in R', armedR.length);
    row('follow-up of a member', 'Graph stand-in (X after restriction)', sent);
    expect(armedR.length).toBe(0);
    expect(sent).toBe(0);
    const log = await logsOf(`chat_id=${enc(CHAT_X)}&rule_id=${memberFollowUp}`);
    expect(log.some((l) => l.actions.some((a) => a.status === 'failed' && /no access to this chat/.test(a.detail ?? '')))).toBe(true);
  });

  it('an SLA policy of a member starts no clock in R (no wake-up, no breach actions); it does in O (control)', async () => {
    const rChat = (await ok<{ chat: Chat }>(w.admin, 'GET', `/chats/${enc(w.chatR)}`)).chat;
    const rWake = heldFor('rule-actions', (b) => b.kind === 'sla' && b.chat_id === w.chatR);
    const oWake = heldFor('rule-actions', (b) => b.kind === 'sla' && b.chat_id === w.chatO && b.phase === 'breach');
    expect(oWake.length, 'control: O has a breach wake-up').toBeGreaterThan(0);
    await fire([...rWake, ...oWake]);
    const rNotes = (await ok<{ messages: Message[] }>(w.admin, 'GET', `/chats/${enc(w.chatR)}/messages`)).messages.filter((m) => (m.body ?? '').includes('EFX-SLA')).length;
    const oNotes = (await ok<{ messages: Message[] }>(w.admin, 'GET', `/chats/${enc(w.chatO)}/messages`)).messages.filter((m) => (m.body ?? '').includes('EFX-SLA'));
    row('SLA policy of a member', "clocks on R's chat row", rChat.sla ? 1 : 0, 1);
    row('SLA policy of a member', 'breach wake-ups for R', rWake.length, oWake.length);
    row('SLA policy of a member', "breach notes in R", rNotes, oNotes.length);
    expect({ clock: rChat.sla ?? null, wakeups: rWake.length, notes: rNotes }).toEqual({ clock: null, wakeups: 0, notes: 0 });
    expect(oNotes.length).toBeGreaterThan(0);
    expect([w.oNumber, w.rNumber].filter((n) => JSON.stringify(oNotes.map((m) => m.body)).includes(n)), 'full numbers in the SLA note the member’s policy wrote').toEqual([]);
    expect(memberSla).toBeTruthy();
  });

  it('a scheduled message of the member to X does not go once X is restricted', async () => {
    const x2 = '15550009013';
    await customerWrites(x2, 'hello from X2', 'Xavi');
    await ok(w.member, 'POST', '/scheduled', { chat_id: `${x2}@c.us`, body: 'EFX-SCHED scheduled hello', recurrence: { kind: 'once', start_date: '2099-01-01', time: '09:00' } });
    const wake = heldFor('scheduled-messages', () => true);
    expect(wake.length).toBeGreaterThan(0);
    await restrict(`${x2}@c.us`);
    await fire(wake);
    const sent = countTo(x2, 'EFX-SCHED');
    row('scheduled message of a member', 'Graph stand-in (after restriction)', sent);
    expect(sent).toBe(0);
  });

  it('a broadcast of the member does not reach a chat restricted before it runs; O gets it (control)', async () => {
    const x3 = '15550009014';
    await customerWrites(x3, 'hello from X3', 'Xio');
    const created = await call<{ broadcast: { broadcast_id: string } }>(w.member, 'POST', '/broadcasts', { name: 'EFX broadcast', audience: { kind: 'chats', chat_ids: [w.chatO, `${x3}@c.us`] }, content: { body: 'EFX-BCAST hello all' }, send_at: Date.now() + 3_600_000, options: { pace_ms: 20 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.broadcast.broadcast_id;
    await rt.idle();
    const wake = await eventually(async () => {
      const h = heldFor('broadcasts', (b) => b.broadcast_id === id);
      return h.length ? h : null;
    }, 10_000, 'the broadcast’s wake-up at its send time');
    await restrict(`${x3}@c.us`);
    // its send time reached (injected clock)
    await runBroadcastStep(JSON.parse(wake[0]!.body) as { org_id: string; broadcast_id: string; seq: number }, { now: () => Date.now() + 2 * 3_600_000, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), rand: Math.random, budgetMs: 20_000 });
    await rt.idle();
    await eventually(async () => countTo(w.oNumber, 'EFX-BCAST') > 0, 10_000, 'the broadcast in O (control)');
    const sent = countTo(x3, 'EFX-BCAST');
    row('broadcast of a member', 'Graph stand-in (after restriction)', sent, countTo(w.oNumber, 'EFX-BCAST'));
    expect(sent).toBe(0);
  });

  it('when the member loses the rules permission, their rules are paused with the reason on /rules', async () => {
    await ok(w.admin, 'PUT', '/settings/permissions', { member_permissions: { rules: false } });
    const rules = await rulesOf();
    const mine = rules.filter((r) => [memberSend, memberChatActions, memberFollowUp].includes(r.rule_id));
    expect(mine.map((r) => [r.enabled, r.paused_reason])).toEqual(mine.map(() => [false, expect.stringMatching(/may no longer use rules/)]));
    await ok(w.admin, 'PUT', '/settings/permissions', { member_permissions: { rules: true } });
    // never silently widened: it stays paused until someone turns it on again (and owns it)
    expect((await rulesOf()).find((r) => r.rule_id === memberSend)!.enabled).toBe(false);
    const resumed = await ok<{ rule: Rule }>(w.member, 'PUT', `/rules/${memberSend}`, { enabled: true });
    expect(resumed.rule).toMatchObject({ enabled: true, paused_reason: null, owner: rt.memberEmail });
    await ok(w.member, 'PUT', `/rules/${memberSend}`, { enabled: false });
    row('rules of a member who lost the rules permission', 'rules left running', mine.filter((r) => r.enabled).length);
  });
});

describe('the loop guard (issue 42 §4)', () => {
  it('two rules "message sent → send a message" send the customer one automatic message each, not four', async () => {
    const mk = (name: string, body: string, extra: Record<string, unknown> = {}) =>
      ok<{ rule: Rule }>(w.admin, 'POST', '/rules', { name, trigger: { type: 'message.sent' }, conditions: { match: 'all', items: [{ field: 'chat.phone', op: 'is_known' }] }, actions: [{ type: 'send_message', body }], ...extra });
    const a = await mk('Loop A', 'EFX-LOOP from A');
    const b = await mk('Loop B', 'EFX-LOOP from B');
    await ok(w.admin, 'POST', `/chats/${enc(CHAT_L)}/messages`, { body: 'a person writes in L' });
    await rt.idle();
    await eventually(async () => countTo(L_NUMBER, 'EFX-LOOP') >= 2, 10_000, 'the two automatic messages');
    await rt.idle();
    const auto = countTo(L_NUMBER, 'EFX-LOOP');
    row('rules A and B (message sent → send)', 'automatic messages to the customer', Math.max(0, auto - 2), auto);
    expect(auto).toBe(2);
    expect(a.rule.allow_after_automation).toBe(false);
    const skipped = await logsOf(`chat_id=${enc(CHAT_L)}&outcome=skipped`);
    expect(skipped.some((l) => /sent automatically by another rule/.test(l.reasons.join(' ')))).toBe(true);
    for (const r of [a, b]) await ok(w.admin, 'PUT', `/rules/${r.rule.rule_id}`, { enabled: false });
    expect(adminHook).toBeTruthy();
  });
});
