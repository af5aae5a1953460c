import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { LocalQueue } from '../../scripts/local/queue.ts';

/**
 * The local queue's FIFO message groups (issue 23; SQS FIFO's MessageGroupId): one group's
 * messages are delivered in send order with never two batches of a group in flight, a failed one
 * holds its group back until its retry, and ungrouped messages are not held up.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chorus-fifo-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LocalQueue message groups', () => {
  it('delivers one group in order, one batch at a time, while other groups run in parallel', async () => {
    const seen: string[] = [];
    const inFlight = new Map<string, number>();
    let overlap = 0;
    const handler = async (event: SQSEvent) => {
      const groups = new Set(event.Records.map((r) => r.body.split(':')[0]!));
      for (const g of groups) {
        if (inFlight.get(g)) overlap++;
        inFlight.set(g, (inFlight.get(g) ?? 0) + 1);
      }
      await new Promise((r) => setImmediate(r));
      for (const r of event.Records) seen.push(r.body);
      for (const g of groups) inFlight.set(g, inFlight.get(g)! - 1);
    };
    const q = new LocalQueue('fifo-order', dir, handler, { maxReceiveCount: 3, batchSize: 3, concurrency: 4 });
    await q.start();
    q.pause();
    for (let i = 0; i < 20; i++) await q.send(`hot:${i}`, { groupId: 'hot' });
    for (let i = 0; i < 5; i++) await q.send(`cold${i}:0`, { groupId: `cold${i}` });
    q.resume();
    await q.idle();
    await q.stop();
    expect(overlap).toBe(0);
    expect(seen.filter((b) => b.startsWith('hot:'))).toEqual(Array.from({ length: 20 }, (_, i) => `hot:${i}`));
    expect(seen).toHaveLength(25);
  });

  it('holds a group behind its failed message until the retry succeeds', async () => {
    const seen: string[] = [];
    let failOnce = true;
    const handler = async (event: SQSEvent) => {
      const batchItemFailures: Array<{ itemIdentifier: string }> = [];
      for (const r of event.Records) {
        if (r.body === 'g:1' && failOnce) {
          failOnce = false;
          batchItemFailures.push({ itemIdentifier: r.messageId });
          continue;
        }
        seen.push(r.body);
      }
      return { batchItemFailures };
    };
    const q = new LocalQueue('fifo-retry', dir, handler, { maxReceiveCount: 3, batchSize: 1, concurrency: 4, backoffMs: () => 1 });
    await q.start();
    q.pause();
    for (let i = 0; i < 4; i++) await q.send(`g:${i}`, { groupId: 'g' });
    q.resume();
    await q.idle();
    await q.stop();
    expect(seen).toEqual(['g:0', 'g:1', 'g:2', 'g:3']);
    expect(q.failedDeliveries).toBe(1);
  });
});
