import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { LaneGate, LocalQueue } from '../../scripts/local/queue.ts';

/**
 * The local runtime's lane gate (scripts/local/queue.ts, issue 23): while the live lane (ingest,
 * fan-out, rules) has work, or had it within the quiet period, background queues run one batch at a
 * time and rest between batches (duty cycle); a wait for idle lifts both. Fake timers: no sleeps.
 * Downstream first: an inbound queue waits while the rules queue it feeds is backlogged (real local
 * queues, awaited by setImmediate rounds, no sleeps).
 */
type FakeQueue = { depth: number; wake: () => void; woken: number };
const queue = (): FakeQueue => {
  const q: FakeQueue = { depth: 0, woken: 0, wake: () => q.woken++ };
  return q;
};

let live: FakeQueue;
let bg: FakeQueue;
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  live = queue();
  bg = queue();
});
afterEach(() => vi.useRealTimers());

const gateOf = (duty: number, quietMs: number, maxLagMs?: number) => {
  const g = new LaneGate(1, duty, quietMs, maxLagMs);
  g.join(live as unknown as LocalQueue, 'live');
  g.join(bg as unknown as LocalQueue, 'background');
  return g;
};

describe('LaneGate', () => {
  it('lets background batches run freely while the live lane is empty', () => {
    const g = gateOf(0.1, 0);
    g.backgroundStarted();
    g.backgroundStarted();
    expect(g.mayStartBackground()).toBe(true);
  });

  it('keeps one background batch in flight while the live lane has work, then rests d × (1 − duty) / duty', () => {
    const g = gateOf(0.1, 0);
    live.depth = 5;
    expect(g.mayStartBackground()).toBe(true);
    g.backgroundStarted();
    expect(g.mayStartBackground()).toBe(false); // the floor: one at a time
    vi.advanceTimersByTime(100);
    g.backgroundFinished(100); // ran 100 ms: rest 900 ms
    expect(g.mayStartBackground()).toBe(false);
    vi.advanceTimersByTime(899);
    expect(g.mayStartBackground()).toBe(false);
    const before = bg.woken;
    vi.advanceTimersByTime(1);
    expect(bg.woken).toBeGreaterThan(before); // the rest's timer wakes the background queues
    expect(g.mayStartBackground()).toBe(true);
  });

  it('counts the live lane busy for the quiet period after it emptied, then wakes the background queues', () => {
    const g = gateOf(0.1, 500);
    live.depth = 1;
    g.backgroundStarted();
    g.backgroundFinished(100);
    live.depth = 0;
    g.liveDrained();
    expect(g.liveBusy()).toBe(true);
    expect(g.mayStartBackground()).toBe(false); // still resting, inside the quiet period
    const before = bg.woken;
    vi.advanceTimersByTime(500);
    expect(g.liveBusy()).toBe(false);
    expect(bg.woken).toBeGreaterThan(before);
    expect(g.mayStartBackground()).toBe(true);
  });

  it('lifts the rest and the quiet period while someone waits for idle', async () => {
    const g = gateOf(0.1, 500);
    live.depth = 1;
    g.backgroundStarted();
    g.backgroundFinished(1_000); // a rest of 9 s
    live.depth = 0;
    g.liveDrained();
    expect(g.mayStartBackground()).toBe(false);
    let during: boolean | undefined;
    await g.hurry(async () => {
      during = g.mayStartBackground();
    });
    expect(during).toBe(true);
    expect(g.mayStartBackground()).toBe(false);
  });

  it('skips the rest for a queue whose oldest message has waited the maximum lag, and wakes it then', () => {
    const g = gateOf(0.1, 0, 2_000);
    live.depth = 5;
    g.backgroundStarted();
    g.backgroundFinished(1_000); // a rest of 9 s
    const sentAt = Date.now() - 500;
    expect(g.mayStartBackground(sentAt)).toBe(false); // waited 0.5 s: rests
    expect(g.mayStartBackground()).toBe(false); // nothing waiting told: rests
    const before = bg.woken;
    vi.advanceTimersByTime(1_499);
    expect(bg.woken).toBe(before);
    vi.advanceTimersByTime(1); // its oldest has now waited 2 s: woken before the rest's end
    expect(bg.woken).toBeGreaterThan(before);
    expect(g.mayStartBackground(sentAt)).toBe(true);
    g.backgroundStarted();
    expect(g.mayStartBackground(sentAt)).toBe(false); // still one at a time (the floor)
  });

  it('with duty 1 and no quiet period, keeps the floor only (the earlier behaviour)', () => {
    const g = gateOf(1, 0);
    live.depth = 3;
    g.backgroundStarted();
    g.backgroundFinished(1_000);
    expect(g.mayStartBackground()).toBe(true);
  });
});

describe('downstream first (LaneGate.chain)', () => {
  let dir: string;
  beforeEach(async () => {
    vi.useRealTimers();
    dir = await mkdtemp(join(tmpdir(), 'chorus-downstream-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('an inbound queue starts no batch while the rules queue has deliverable messages that no free slot took, and goes on once it has none', async () => {
    const gate = new LaneGate();
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // the rules queue: one slot, its first batch held until released
    const rules = new LocalQueue('down-rules', dir, async (e: SQSEvent) => {
      order.push(`rules ${e.Records.map((r) => r.body).join(',')}`);
      if (e.Records.some((r) => r.body === 'r1')) await held;
    }, { maxReceiveCount: 3, batchSize: 1, concurrency: 1, gate, lane: 'live' });
    const inbound = new LocalQueue('down-inbound', dir, async (e: SQSEvent) => void order.push(`inbound ${e.Records.map((r) => r.body).join(',')}`), { maxReceiveCount: 3, batchSize: 10, concurrency: 1, gate, lane: 'live' });
    gate.chain(inbound, rules);
    await Promise.all([rules.start(), inbound.start()]);
    await rules.sendMany([{ body: 'r1' }, { body: 'r2' }]);
    await until(() => order.includes('rules r1'));
    expect(rules.backlogged()).toBe(true); // r1 in its one slot, r2 waiting
    await inbound.send('w1');
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['rules r1']); // the webhook waits: the rules queue is backlogged
    release();
    await until(() => order.includes('inbound w1'));
    // r2 was taken first (the slot freed), then the webhook went on
    expect(order.indexOf('rules r2')).toBeLessThan(order.indexOf('inbound w1'));
    expect(rules.backlogged()).toBe(false);
    // a paused downstream queue never holds the inbound one
    rules.pause();
    await rules.send('r3');
    await inbound.send('w2');
    await until(() => order.includes('inbound w2'));
    await Promise.all([rules.stop(), inbound.stop()]);
  });
});

/** Wait (setImmediate rounds, no sleeps) until `done()`; fails after ~20,000 rounds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (done()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('condition not met');
}
