import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { documentClient } from '../../shared/db/client.ts';
import { handleRuleEvent, type BusEvent } from '../../shared/rules/engine.ts';
import { joinBatchTotals } from '../../shared/db/transaction.ts';
import { handler as rulesConsumer } from '../../functions/consumers/rules-engine.ts';
import { memoryReceipts } from '../../functions/lib/dedupe.ts';
import type { SQSRecord } from 'aws-lambda';
import { signStripePayload, stripeShapedEvent } from '../../shared/plan/billing-local.ts';
import type { Rule, RuleLog } from '../../shared/rules/rule.schemas.ts';

/**
 * A rule's private note is done exactly once (issue 17: idempotent by event id + rule id + action
 * index) when the rules consumer is retried mid-way: the action's receipt and the chat's rate count
 * are items of the note's own transaction (shared/rules/engine.ts runJoined), so
 *  - a transaction whose answer is lost after it committed (the consumer saw an error, the queue
 *    redelivers) is found done by the retry: one note, the retry's log row (one per evaluation)
 *    says it was already done;
 *  - a failure before the commit leaves nothing behind: the retry writes the note, once, and its
 *    log row replaces the failed attempt's;
 *  - over the chat's rate limit nothing is written and the receipt says 'skipped';
 *  - the notes of one SQS batch commit in one transaction (JoinBatch), each still exactly once:
 *    a batch holding an event already done falls back to one transaction per note.
 * Faults are injected with a DynamoDB middleware on the one document client (no sleeps).
 */
let rt: TestRuntime;
let admin: string;
let rule: Rule;
const enc = encodeURIComponent;
const call = async <T = Record<string, unknown>>(method: string, path: string, json?: unknown) => rt.orgCall<T>(admin, method, path, json);
const notesOf = async (chatId: string) =>
  ((await call<{ messages: Array<{ body?: string; is_private_note?: boolean }> }>('GET', `/chats/${enc(chatId)}/messages`)).body.messages ?? []).filter((m) => m.is_private_note);
const logsOf = async (chatId: string) => (await call<{ logs: RuleLog[] }>('GET', `/logs/rules?rule_id=${rule.rule_id}&chat_id=${enc(chatId)}`)).body.logs;
const FAULT = 'rulesExactlyOnceFault';

/** Fail the next TransactWriteItems that carries a rule action receipt, once: after it committed (`after`) or before it was sent. */
function failNextReceiptTransaction(when: 'after' | 'before'): { fired: () => boolean } {
  let fired = false;
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const mine = !fired && context.commandName === 'TransactWriteItemsCommand' && JSON.stringify(args.input).includes('rule_action');
      if (!mine) return next(args);
      fired = true;
      if (when === 'before') throw new Error('socket hang up (injected before the commit)');
      await next(args);
      throw new Error('socket hang up (injected: the answer of a committed transaction was lost)');
    },
    { step: 'initialize', name: FAULT },
  );
  return { fired: () => fired };
}

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  const ev = stripeShapedEvent('paid', { org_id: rt.orgId, plan_id: 'pro', licences: 1 });
  const secret = rt.env.STRIPE_WEBHOOK_SECRET ?? process.env.STRIPE_WEBHOOK_SECRET!;
  const res = await fetch(`${rt.url}/webhooks/billing`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(ev.payload, secret) }, body: ev.payload });
  expect(res.status).toBe(200);
  rule = (await call<{ rule: Rule }>('POST', '/rules', {
    name: 'Note once',
    trigger: { type: 'message.received' },
    conditions: { match: 'all', items: [{ field: 'message.body', op: 'contains', value: 'once' }] },
    actions: [{ type: 'private_note', body: 'noted: {{message.body}}' }],
  })).body.rule;
  expect(rule.rule_id).toBeTruthy();
}, 120_000);

afterEach(() => {
  documentClient().middlewareStack.remove(FAULT);
  delete process.env.RULES_CHAT_RATE_PER_MINUTE;
});

afterAll(async () => {
  await rt?.cleanup();
});

describe('rule actions exactly once across retries', () => {
  it('a committed note whose answer was lost is not written again by the retry', async () => {
    const chatId = '15550007001@c.us';
    const fault = failNextReceiptTransaction('after');
    await rt.postWebhook(inboundText(rt.phone, '15550007001', 'once after', { name: 'Lia' }));
    const logs = await eventually(async () => {
      const l = await logsOf(chatId);
      return l.some((x) => x.actions[0]?.status === 'duplicate') ? l : null;
    }, 30_000, 'the retried evaluation');
    await rt.idle();
    expect(fault.fired()).toBe(true);
    // the first attempt saw the error (and was retried); the retry found the receipt of the committed
    // note, and its row (the same log_id: one row per evaluation) replaced the attempt's 'failed'
    expect(logs.map((l) => l.actions[0]?.status)).toEqual(['duplicate']);
    expect((await notesOf(chatId)).map((n) => n.body)).toEqual(['noted: once after']);
    const receipt = (await db().entities.ruleAction.query.byKey({ org_id: rt.orgId, action_key: `${logs[0]!.event_id}|${rule.rule_id}|0` }).go()).data[0];
    expect(receipt?.status).toBe('done');
  });

  it('a failure before the commit leaves nothing: the retry writes the note once', async () => {
    const chatId = '15550007002@c.us';
    const fault = failNextReceiptTransaction('before');
    await rt.postWebhook(inboundText(rt.phone, '15550007002', 'once before', { name: 'Ivo' }));
    const logs = await eventually(async () => {
      const l = await logsOf(chatId);
      return l.some((x) => x.actions[0]?.status === 'done') ? l : null;
    }, 30_000, 'the retried evaluation');
    await rt.idle();
    expect(fault.fired()).toBe(true);
    // the retry's row replaced the failed attempt's (one row per evaluation)
    expect(logs.map((l) => l.actions[0]?.status)).toEqual(['done']);
    expect((await notesOf(chatId)).map((n) => n.body)).toEqual(['noted: once before']);
  });

  it('the same event handled twice writes one note; over the chat rate limit nothing is written and the receipt says skipped', async () => {
    const chatId = '15550007003@c.us';
    await rt.postWebhook(inboundText(rt.phone, '15550007003', 'hello', { name: 'Ona' }));
    await rt.idle();
    const chat = (await call<{ chat: Record<string, unknown> }>('GET', `/chats/${enc(chatId)}`)).body.chat;
    const event = (n: number): BusEvent => ({
      'detail-type': 'message.received',
      detail: {
        properties: { org_id: rt.orgId, chat, message: { chat_id: chatId, unique_id: `u-once-${n}`, body: `once ${n}`, from_me: false, message_type: 'text', timestamp: Date.now(), ack: 0 } },
        metadata: { id: `message.received:test:once-${n}`, occurred_at: new Date().toISOString() },
      },
    });
    // the same event twice, at once: one note
    await Promise.all([handleRuleEvent(event(1)), handleRuleEvent(event(1))]);
    expect((await notesOf(chatId)).map((n) => n.body)).toEqual(['noted: once 1']);
    // concurrent events of one chat count against the same rate item in their transactions: a
    // TransactionConflict between them is tried again, never taken for the rate limit
    await Promise.all([5, 6, 7, 8, 9, 10].map((n) => handleRuleEvent(event(n))));
    const burst = await logsOf(chatId);
    expect([5, 6, 7, 8, 9, 10].map((n) => burst.find((l) => l.event_id === `message.received:test:once-${n}`)?.actions[0]?.status)).toEqual(Array(6).fill('done'));
    expect((await notesOf(chatId)).length).toBe(7);
    // one rule action per chat and minute: of three more events (within at most two minutes'
    // windows, one of which already holds earlier actions) at least one is over the limit
    process.env.RULES_CHAT_RATE_PER_MINUTE = '1';
    for (const n of [2, 3, 4]) await handleRuleEvent(event(n));
    const logs = await logsOf(chatId);
    const statusOf = (n: number) => logs.find((l) => l.event_id === `message.received:test:once-${n}`)?.actions[0]?.status;
    const later = [2, 3, 4].map(statusOf);
    expect(later.every((s) => s === 'done' || s === 'skipped')).toBe(true);
    expect(later.filter((s) => s === 'skipped').length).toBeGreaterThanOrEqual(1);
    const notes = (await notesOf(chatId)).map((n) => n.body).sort();
    expect(notes).toEqual(['noted: once 1', ...[5, 6, 7, 8, 9, 10].map((n) => `noted: once ${n}`), ...[2, 3, 4].filter((n) => statusOf(n) === 'done').map((n) => `noted: once ${n}`)].sort());
    for (const n of [2, 3, 4].filter((x) => statusOf(x) === 'skipped')) {
      const r = (await db().entities.ruleAction.query.byKey({ org_id: rt.orgId, action_key: `message.received:test:once-${n}|${rule.rule_id}|0` }).go()).data[0];
      expect(r).toMatchObject({ status: 'skipped', detail: 'rate limit' });
    }
  });

  it("a batch's notes commit together, each exactly once; a batch with an event already done falls back to one transaction each", async () => {
    const numbers = ['15550007011', '15550007012', '15550007013'];
    for (const n of numbers) await rt.postWebhook(inboundText(rt.phone, n, 'hello', { name: `C${n.slice(-2)}` }));
    await rt.idle();
    const chats = await Promise.all(numbers.map(async (n) => (await call<{ chat: Record<string, unknown> }>('GET', `/chats/${enc(`${n}@c.us`)}`)).body.chat));
    // an event keeps its time when delivered again
    const times = new Map<string, number>();
    const timeOf = (n: string) => times.get(n) ?? (times.set(n, Date.now()), times.get(n)!);
    const event = (c: number, n: string): BusEvent => ({
      'detail-type': 'message.received',
      detail: {
        properties: { org_id: rt.orgId, chat: chats[c], message: { chat_id: `${numbers[c]}@c.us`, unique_id: `u-batch-${n}`, body: `once ${n}`, from_me: false, message_type: 'text', timestamp: timeOf(n), ack: 0 } },
        metadata: { id: `message.received:test:batch-${n}`, occurred_at: new Date(timeOf(n)).toISOString(), version: 1, actor: 'whatsapp:test' } as BusEvent['detail']['metadata'],
      },
    });
    const record = (e: BusEvent, i: number): SQSRecord => ({
      messageId: `m-${e.detail.metadata.id}-${i}`,
      receiptHandle: 'r',
      body: JSON.stringify({ version: '0', id: `bus-${i}`, source: 'chorus', account: '0', time: new Date().toISOString(), region: 'local', resources: [], ...e }),
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'test', ApproximateFirstReceiveTimestamp: String(Date.now()) },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:0:rules-engine',
      awsRegion: 'local',
    });
    const statusOf = async (c: number, n: string) => (await logsOf(`${numbers[c]}@c.us`)).filter((l) => l.event_id === `message.received:test:batch-${n}`).map((l) => l.actions[0]?.status);
    const bodies = async (c: number) => (await notesOf(`${numbers[c]}@c.us`)).map((x) => x.body).sort();

    type OutboxItem = { detail?: { properties?: { message?: { body?: string } }; metadata?: { causation?: { event_id: string } } } };
    // two chats' events in one batch: one transaction for both notes, each note's event caused by its own event (loop guard)
    const caused: Array<{ body?: string; cause?: string }> = [];
    documentClient().middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand')
          for (const t of (args.input as { TransactItems?: Array<{ Put?: { Item?: OutboxItem & { more?: OutboxItem[] } } }> }).TransactItems ?? []) {
            // an outbox row holds its commit's events: the first in its fields, the rest in `more`
            for (const item of t.Put?.Item ? [t.Put.Item, ...(t.Put.Item.more ?? [])] : []) {
              const d = item.detail;
              if (d?.metadata?.causation) caused.push({ body: d.properties?.message?.body, cause: d.metadata.causation.event_id });
            }
          }
        return next(args);
      },
      { step: 'initialize', name: FAULT },
    );
    const before = { ...joinBatchTotals };
    const res = await rulesConsumer({ Records: [record(event(0, 'a1'), 1), record(event(1, 'b1'), 2)] });
    documentClient().middlewareStack.remove(FAULT);
    expect(res.batchItemFailures).toEqual([]);
    expect(caused.sort((x, y) => String(x.body).localeCompare(String(y.body)))).toEqual([
      { body: 'noted: once a1', cause: 'message.received:test:batch-a1' },
      { body: 'noted: once b1', cause: 'message.received:test:batch-b1' },
    ]);
    expect(joinBatchTotals.together - before.together).toBe(1);
    expect(joinBatchTotals.writesTogether - before.writesTogether).toBe(2);
    expect(await bodies(0)).toEqual(['noted: once a1']);
    expect(await bodies(1)).toEqual(['noted: once b1']);

    // a batch with a1 again (its consumer receipt lost: the engine sees it), two events of chat 1 and one of chat 2:
    // the shared transaction is cancelled by a1's receipt, so each note goes on its own; a1 stays one note.
    // (This org's rules arm no timers: its receipts are in-process, relevance.ts ruleEventReplayHarmless; a restart loses them.)
    expect((await db().entities.consumerReceipt.get({ consumer: 'rules-engine', event_id: 'message.received:test:batch-a1' }).go()).data).toBeNull();
    memoryReceipts.forget('rules-engine', ['message.received:test:batch-a1']);
    const res2 = await rulesConsumer({ Records: [record(event(0, 'a1'), 3), record(event(1, 'b2'), 4), record(event(1, 'b3'), 5), record(event(2, 'c1'), 6)] });
    expect(res2.batchItemFailures).toEqual([]);
    expect(await bodies(0)).toEqual(['noted: once a1']);
    expect(await bodies(1)).toEqual(['noted: once b1', 'noted: once b2', 'noted: once b3']);
    expect(await bodies(2)).toEqual(['noted: once c1']);
    // one row per evaluation: the repeat's (all 'duplicate') does not replace the row that says what was done
    expect(await statusOf(0, 'a1')).toEqual(['done']);
    for (const [c, n] of [[1, 'b2'], [1, 'b3'], [2, 'c1']] as const) expect(await statusOf(c, n)).toEqual(['done']);

    // the shared transaction's answer is lost after it committed: each note is found done on its own (no second note)
    const fault = failNextReceiptTransaction('after');
    const res3 = await rulesConsumer({ Records: [record(event(0, 'a2'), 7), record(event(2, 'c2'), 8)] });
    expect(fault.fired()).toBe(true);
    expect(res3.batchItemFailures).toEqual([]);
    expect(await bodies(0)).toEqual(['noted: once a1', 'noted: once a2']);
    expect(await bodies(2)).toEqual(['noted: once c1', 'noted: once c2']);

    // once a rule arms timers (a delayed action), a repeat is no longer harmless: receipts go to the table again
    const timed = (await call<{ rule: Rule }>('POST', '/rules', { name: 'Later', trigger: { type: 'message.received' }, conditions: { match: 'all', items: [{ field: 'message.body', op: 'contains', value: 'never' }] }, actions: [{ type: 'close', delay_minutes: 5 }] })).body.rule;
    expect(timed.rule_id).toBeTruthy();
    try {
      const res4 = await rulesConsumer({ Records: [record(event(1, 'b4'), 9)] });
      expect(res4.batchItemFailures).toEqual([]);
      expect((await db().entities.consumerReceipt.get({ consumer: 'rules-engine', event_id: 'message.received:test:batch-b4' }).go()).data?.event_id).toBe('message.received:test:batch-b4');
    } finally {
      await call('DELETE', `/rules/${timed.rule_id}`);
    }
  });
});
