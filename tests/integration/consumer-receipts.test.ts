import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SQSRecord } from 'aws-lambda';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { NOOP, sqsHandler } from '../../functions/lib/sqs.ts';
import { onEventHandled } from '../../functions/lib/dedupe.ts';
import { db } from '../../shared/db/service.ts';
import { documentClient } from '../../shared/db/client.ts';

/**
 * Consumer receipts (functions/lib/sqs.ts, issue 23): one BatchGet and one BatchWrite per batch,
 * a `relevant` test that skips events with no table call, and NOOP results kept in-process only.
 * Counted against DynamoDB Local through the document client's middleware.
 */
let rt: TestRuntime;
const calls: string[] = [];
let counting = false;
const handled: string[] = [];
let stop: () => void;

beforeAll(async () => {
  rt = await startTestRuntime();
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      // only calls about the probe consumers' receipts (the runtime's own pollers run meanwhile)
      if (counting && JSON.stringify((args as { input?: unknown }).input ?? {}).includes('probe-')) calls.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'receiptsTestCounter' },
  );
  stop = onEventHandled((consumer, id) => consumer.startsWith('probe-') && handled.push(`${consumer}:${id}`));
});
afterAll(async () => {
  stop?.();
  await rt?.cleanup();
});

let seq = 0;
const event = (orgId: string, id = `ev-${Date.now()}-${++seq}`) => ({ id, 'detail-type': 'message.received', detail: { properties: { org_id: orgId }, metadata: { id } } });
const record = (body: ReturnType<typeof event>): SQSRecord =>
  ({ messageId: `m-${++seq}`, body: JSON.stringify(body), receiptHandle: 'r', attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()) }, messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:local:0:q', awsRegion: 'local' }) as unknown as SQSRecord;
const counted = async <T>(fn: () => Promise<T>): Promise<T> => {
  calls.length = 0;
  counting = true;
  try {
    return await fn();
  } finally {
    counting = false;
  }
};
const receipt = async (consumer: string, eventId: string) => (await db().entities.consumerReceipt.get({ consumer, event_id: eventId }).go({ consistent: true })).data;

describe('consumer receipts', () => {
  it('a batch reads its receipts with one BatchGet and writes them with one BatchWrite; a redelivered event is skipped', async () => {
    const ran: string[] = [];
    const handler = sqsHandler('probe-batch', async (r) => void ran.push(JSON.parse(r.body).id as string));
    const events = Array.from({ length: 5 }, () => event(rt.orgId));
    const res = await counted(() => handler({ Records: events.map(record) }));
    expect(res.batchItemFailures).toEqual([]);
    expect(ran.sort()).toEqual(events.map((e) => e.id).sort());
    expect(calls).toEqual(['BatchGetItemCommand', 'BatchWriteItemCommand']);
    for (const e of events) expect(await receipt('probe-batch', e.id)).toBeTruthy();
    // redelivered: handled already, fn does not run again and nothing is written
    await counted(() => handler({ Records: events.slice(0, 2).map(record) }));
    expect(ran).toHaveLength(5);
    expect(calls).toEqual(['BatchGetItemCommand']);
    expect(handled.filter((h) => h.startsWith('probe-batch:'))).toHaveLength(5);
  });

  it('an event the consumer has nothing to do for (relevant = false) costs no table call and is handled once', async () => {
    let ran = 0;
    const handler = sqsHandler('probe-relevant', async () => void ran++, { relevant: (r) => (JSON.parse(r.body) as { detail: { properties: { org_id: string } } }).detail.properties.org_id === rt.orgId });
    const other = event('org-without-anything');
    const mine = event(rt.orgId);
    const res = await counted(() => handler({ Records: [record(other), record(mine)] }));
    expect(res.batchItemFailures).toEqual([]);
    expect(ran).toBe(1);
    // the relevant one: its receipt read and written; the other: nothing
    expect(calls).toEqual(['BatchGetItemCommand', 'BatchWriteItemCommand']);
    expect(await receipt('probe-relevant', other.id)).toBeNull();
    // redelivered in this process: not announced again
    await counted(() => handler({ Records: [record(other)] }));
    expect(calls).toEqual([]);
    expect(handled.filter((h) => h === `probe-relevant:${other.id}`)).toHaveLength(1);
  });

  it('a NOOP result writes no receipt and is skipped in-process when redelivered; a failure writes none and is retried', async () => {
    let runs = 0;
    const handler = sqsHandler('probe-noop', async (r) => {
      runs++;
      const id = JSON.parse(r.body).id as string;
      if (id.endsWith('fail')) throw new Error('bad record');
      return NOOP;
    });
    const quiet = event(rt.orgId);
    const bad = event(rt.orgId, `ev-${Date.now()}-fail`);
    const [q, b] = [record(quiet), record(bad)];
    const res = await counted(() => handler({ Records: [q, b] }));
    expect(res.batchItemFailures).toEqual([{ itemIdentifier: b.messageId }]);
    expect(calls).toEqual(['BatchGetItemCommand']);
    expect(await receipt('probe-noop', quiet.id)).toBeNull();
    expect(await receipt('probe-noop', bad.id)).toBeNull();
    await handler({ Records: [record(quiet)] });
    expect(runs).toBe(2);
    expect(handled.filter((h) => h === `probe-noop:${quiet.id}`)).toHaveLength(1);
  });
});
