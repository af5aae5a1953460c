import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { LocalQueue } from '../../scripts/local/queue.ts';

/**
 * The local queue's group commit (scripts/local/queue.ts Segment): messages sent together are kept
 * in one `<id>-seg.json` file until each of them is handled, retried from its own file, or
 * dead-lettered; a restart takes a message's own file over its segment copy; nothing accepted is
 * lost and nothing handled stays on disk.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chorus-segments-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Settle until `done()` (file I/O and promise callbacks), at most ~5,000 rounds of setImmediate. */
const settleUntil = async (done: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 5_000 && !(await done()); i++) await new Promise((r) => setImmediate(r));
};
const files = async (name: string) => (await readdir(join(dir, 'queues', name))).filter((f) => f.endsWith('.json')).sort();

describe('local queue group commit', () => {
  it('keeps one sendMany in one file, writes a failed message its own file, and removes the segment once all are settled', async () => {
    const seen: string[] = [];
    let failOnce = true;
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse | void> => {
      const failures: Array<{ itemIdentifier: string }> = [];
      for (const r of event.Records) {
        seen.push(`${r.body}#${r.attributes.ApproximateReceiveCount}`);
        if (r.body === 'b' && failOnce) {
          failOnce = false;
          failures.push({ itemIdentifier: r.messageId });
        }
      }
      return { batchItemFailures: failures };
    };
    // hold deliveries until the files are inspected
    const q = new LocalQueue('seg-a', dir, handler, { maxReceiveCount: 5, batchSize: 10, concurrency: 1, backoffMs: () => 1 });
    await q.start();
    q.pause();
    await q.sendMany(['a', 'b', 'c'].map((body) => ({ body })));
    const after = await files('seg-a');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/-seg\.json$/);
    const seg = JSON.parse(await readFile(join(dir, 'queues', 'seg-a', after[0]!), 'utf8')) as { segment: Array<{ body: string }> };
    expect(seg.segment.map((s) => s.body)).toEqual(['a', 'b', 'c']);
    q.resume();
    await q.idle();
    expect(seen).toEqual(['a#1', 'b#1', 'c#1', 'b#2']);
    expect(await files('seg-a')).toEqual([]);
    await q.stop();
  });

  it('joins sends made while a write is under way into the next write; a lone send is its own file', async () => {
    const q = new LocalQueue('seg-b', dir, async () => undefined, { maxReceiveCount: 5, batchSize: 10, concurrency: 1 });
    await q.start();
    q.pause();
    // x's write starts at once; y and z come while it is under way and share the next one
    await Promise.all([q.send('x'), q.send('y'), q.send('z')]);
    const after = await files('seg-b');
    expect(after).toHaveLength(2);
    expect(after.filter((f) => f.endsWith('-seg.json'))).toHaveLength(1);
    await q.send('w');
    expect(await files('seg-b')).toHaveLength(3);
    q.resume();
    await q.idle();
    expect(await files('seg-b')).toEqual([]);
    await q.stop();
  });

  it('at start, takes a message from its own file over its segment copy and redelivers the rest', async () => {
    const qdir = join(dir, 'queues', 'seg-c');
    await mkdir(qdir, { recursive: true });
    const row = (id: string, body: string, receiveCount = 0) => ({ id, body, receiveCount, notBefore: 0, sentAt: 1 });
    await writeFile(join(qdir, '01A-seg.json'), JSON.stringify({ segment: [row('01A', 'one'), row('01B', 'two'), row('01C', 'three')] }));
    // 01B failed once before the crash: its own file has the newer state
    await writeFile(join(qdir, '01B.json'), JSON.stringify(row('01B', 'two', 1)));
    // a segment all of whose messages moved on is only removed
    await writeFile(join(qdir, '01D-seg.json'), JSON.stringify({ segment: [row('01D', 'four')] }));
    await writeFile(join(qdir, '01D.json'), JSON.stringify(row('01D', 'four', 2)));
    const seen: string[] = [];
    const q = new LocalQueue('seg-c', dir, async (event) => void seen.push(...event.Records.map((r) => `${r.body}#${r.attributes.ApproximateReceiveCount}`)), { maxReceiveCount: 5, batchSize: 10, concurrency: 1 });
    expect(await q.start()).toBe(4);
    await q.idle();
    await settleUntil(async () => (await files('seg-c')).length === 0);
    expect(seen).toEqual(['one#1', 'two#2', 'three#1', 'four#3']);
    expect(await files('seg-c')).toEqual([]);
    await q.stop();
  });
});
