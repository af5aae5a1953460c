import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { LocalQueue } from '../../scripts/local/queue.ts';
import { batchingWindowMs, SUBSCRIPTIONS } from '../../events/catalog.ts';

/**
 * The local queue's batching window (SQS MaximumBatchingWindowInSeconds; events/catalog.ts
 * batchingWindowMs, the rule the CDK consumer construct applies too): a batch smaller than
 * `batchSize` waits until its oldest message has waited the window, a full batch goes at once,
 * and `idle()` drains at once. The clock is vitest's (Date and setTimeout faked), not sleeps.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chorus-window-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Let file I/O and promise callbacks run (setImmediate is not faked). */
const settle = async (rounds = 20) => {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
};
/** Settle until `done()` (file I/O can take a while on a busy machine), at most ~5,000 rounds. */
const settleUntil = async (done: () => boolean) => {
  for (let i = 0; i < 5_000 && !done(); i++) await new Promise((r) => setImmediate(r));
};
/** Stop with real timers: stop() polls in-flight batches with setTimeout. */
const stop = async (q: LocalQueue) => {
  vi.useRealTimers();
  await q.stop();
};

function recorder() {
  const batches: string[][] = [];
  const handler = async (event: SQSEvent) => {
    batches.push(event.Records.map((r) => r.body));
  };
  return { batches, handler };
}

describe('batching window', () => {
  it('follows the catalogue rule: 1 s above 10 records on a standard queue, none on FIFO or small batches', () => {
    expect(batchingWindowMs(100)).toBe(1000);
    expect(batchingWindowMs(10)).toBe(0);
    expect(batchingWindowMs(100, true)).toBe(0);
    expect(SUBSCRIPTIONS.find((s) => s.name === 'analytics-aggregate')!.batchSize).toBe(100);
  });

  it('holds a small batch until its oldest message has waited the window, then delivers it as one', async () => {
    const { batches, handler } = recorder();
    const q = new LocalQueue('window-wait', dir, handler, { maxReceiveCount: 3, batchSize: 100, batchWindowMs: 1000 });
    await q.start();
    for (let i = 0; i < 5; i++) {
      await q.send(`m${i}`);
      vi.advanceTimersByTime(100);
    }
    await settle();
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(400); // 900 ms after the first: still inside the window
    await settle();
    expect(batches).toEqual([]);
    vi.advanceTimersByTime(200);
    await settleUntil(() => batches.length > 0);
    expect(batches).toEqual([['m0', 'm1', 'm2', 'm3', 'm4']]);
    await stop(q);
  });

  it('delivers a full batch at once, and everything when someone waits for idle', async () => {
    const { batches, handler } = recorder();
    const q = new LocalQueue('window-full', dir, handler, { maxReceiveCount: 3, batchSize: 3, batchWindowMs: 1000 });
    await q.start();
    await q.sendMany(['a', 'b', 'c', 'd'].map((body) => ({ body })));
    await settleUntil(() => batches.length > 0);
    await settle();
    expect(batches).toEqual([['a', 'b', 'c']]);
    await q.idle();
    expect(batches).toEqual([['a', 'b', 'c'], ['d']]);
    await stop(q);
  });

  it('delivers at once without a window', async () => {
    const { batches, handler } = recorder();
    const q = new LocalQueue('window-none', dir, handler, { maxReceiveCount: 3, batchSize: 100 });
    await q.start();
    await q.send('x');
    await settleUntil(() => batches.length > 0);
    expect(batches).toEqual([['x']]);
    await stop(q);
  });
});
