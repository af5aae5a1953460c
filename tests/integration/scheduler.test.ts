import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalScheduler, type Deliver, type LocalScheduler } from '../../scripts/local/scheduler.ts';
import type { CommandQueue } from '../../shared/ports/commands.ts';

/** The local scheduler adapter alone (temp dir, fake delivery): timing, replace/cancel, restarts, retries. */
const dirs: string[] = [];
const running: LocalScheduler[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
const tmp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'chorus-scheduler-'));
  dirs.push(d);
  return d;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Delivery {
  queue: CommandQueue;
  body: string;
  at: number;
}
/** A delivery function that records what it got (and can be told to fail). */
function recorder() {
  const got: Delivery[] = [];
  let failures = 0;
  const deliver: Deliver = async (queue, body) => {
    if (failures > 0) {
      failures--;
      throw new Error('queue unavailable');
    }
    got.push({ queue, body, at: Date.now() });
  };
  return { got, deliver, failNext: (n: number) => void (failures = n) };
}
const start = async (dir: string, deliver: Deliver, retryMs?: number) => {
  const s = await startLocalScheduler(dir, deliver, { retryMs });
  running.push(s);
  return s;
};
const saved = async (dir: string) => JSON.parse(await readFile(join(dir, 'schedules.json'), 'utf8')) as Array<{ name: string }>;
const until = async (cond: () => boolean | Promise<boolean>, ms = 3000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(10);
  }
};

describe('local scheduler', () => {
  it('fires on time and forgets the schedule once delivered', async () => {
    const dir = await tmp();
    const r = recorder();
    const s = await start(dir, r.deliver);
    const at = Date.now() + 300;
    await s.schedule({ name: 'task-reminder-o-t1', at, queue: 'task-reminders', body: '{"task_id":"t1"}' });
    expect(s.pending()).toBe(1);
    expect((await saved(dir)).map((e) => e.name)).toEqual(['task-reminder-o-t1']);
    await until(() => r.got.length === 1);
    expect(r.got[0]).toMatchObject({ queue: 'task-reminders', body: '{"task_id":"t1"}' });
    expect(r.got[0]!.at - at).toBeGreaterThanOrEqual(-5);
    expect(r.got[0]!.at - at).toBeLessThan(200);
    expect(s.pending()).toBe(0);
    // removed from the file right after the delivery
    await until(async () => (await saved(dir)).length === 0);
  });

  it('replaces a schedule of the same name and cancels', async () => {
    const dir = await tmp();
    const r = recorder();
    const s = await start(dir, r.deliver);
    await s.schedule({ name: 'a', at: Date.now() + 150, queue: 'task-reminders', body: 'first' });
    await s.schedule({ name: 'a', at: Date.now() + 400, queue: 'task-reminders', body: 'second' });
    await s.schedule({ name: 'b', at: Date.now() + 150, queue: 'task-reminders', body: 'cancelled' });
    await s.cancel('b');
    await s.cancel('never-scheduled');
    expect(s.pending()).toBe(1);
    await sleep(250);
    expect(r.got).toEqual([]);
    await until(() => r.got.length === 1);
    await sleep(200);
    expect(r.got.map((d) => d.body)).toEqual(['second']);
  });

  it('survives a restart: a schedule due while stopped fires at once on the next start', async () => {
    const dir = await tmp();
    const first = recorder();
    const s1 = await start(dir, first.deliver);
    await s1.schedule({ name: 'restart', at: Date.now() + 1500, queue: 'task-reminders', body: 'after restart' });
    await s1.stop();
    await sleep(2000);
    expect(first.got).toEqual([]);
    const second = recorder();
    const started = Date.now();
    const s2 = await start(dir, second.deliver);
    expect(s2.pending()).toBe(1);
    await until(() => second.got.length === 1);
    // "at once": well before any retry backoff, with room for a loaded 2-core CI machine
    expect(second.got[0]!.at - started).toBeLessThan(1000);
    expect(second.got[0]!.body).toBe('after restart');
  });

  it('fires past schedules at start and keeps future ones armed', async () => {
    const dir = await tmp();
    const now = Date.now();
    await writeFile(
      join(dir, 'schedules.json'),
      JSON.stringify([
        { name: 'late-1', at: now - 60_000, queue: 'task-reminders', body: 'late 1' },
        { name: 'late-2', at: now - 1, queue: 'task-reminders', body: 'late 2' },
        { name: 'later', at: now + 60_000, queue: 'task-reminders', body: 'later' },
      ]),
    );
    const r = recorder();
    const s = await start(dir, r.deliver);
    await until(() => r.got.length === 2);
    expect(r.got.map((d) => d.body).sort()).toEqual(['late 1', 'late 2']);
    expect(s.pending()).toBe(1);
    await until(async () => (await saved(dir)).length === 1);
    expect((await saved(dir)).map((e) => e.name)).toEqual(['later']);
  });

  it('retries a failed delivery and keeps the entry in the file until it is delivered', async () => {
    const dir = await tmp();
    const r = recorder();
    r.failNext(2);
    const s = await start(dir, r.deliver, 150);
    await s.schedule({ name: 'flaky', at: Date.now(), queue: 'task-reminders', body: 'eventually' });
    await sleep(100);
    expect(r.got).toEqual([]);
    expect((await saved(dir)).map((e) => e.name)).toEqual(['flaky']);
    expect(s.pending()).toBe(1);
    await until(() => r.got.length === 1);
    expect(r.got[0]!.body).toBe('eventually');
    expect(s.pending()).toBe(0);
    // removed from the file right after the delivery
    await until(async () => (await saved(dir)).length === 0);
  });

  it('stops with an undelivered schedule still in the file (at least once across a crash)', async () => {
    const dir = await tmp();
    let release!: () => void;
    const blocked = new Promise<void>((res) => (release = res));
    const s = await startLocalScheduler(dir, () => blocked.then(() => Promise.reject(new Error('runtime stopping'))));
    await s.schedule({ name: 'in-flight', at: Date.now(), queue: 'task-reminders', body: 'x' });
    await sleep(20);
    const stopped = s.stop();
    release();
    await stopped;
    expect((await saved(dir)).map((e) => e.name)).toEqual(['in-flight']);
    expect(existsSync(join(dir, 'schedules.json.tmp'))).toBe(false);
    await expect(s.schedule({ name: 'y', at: Date.now(), queue: 'task-reminders', body: 'y' })).rejects.toThrow(/stopped/);
  });

  it('waits past the longest timer (2^31-1 ms) without firing early', async () => {
    const dir = await tmp();
    const r = recorder();
    const s = await start(dir, r.deliver);
    await s.schedule({ name: 'far', at: Date.now() + 40 * 24 * 3600_000, queue: 'task-reminders', body: 'in 40 days' });
    await sleep(100);
    expect(r.got).toEqual([]);
    expect(s.pending()).toBe(1);
  });

  it('refuses names and bodies EventBridge Scheduler would refuse', async () => {
    const s = await start(await tmp(), recorder().deliver);
    await expect(s.schedule({ name: 'has space', at: Date.now(), queue: 'task-reminders', body: '' })).rejects.toThrow(/name/);
    await expect(s.schedule({ name: 'x'.repeat(65), at: Date.now(), queue: 'task-reminders', body: '' })).rejects.toThrow(/name/);
    await expect(s.schedule({ name: 'big', at: Date.now(), queue: 'task-reminders', body: 'x'.repeat(8193) })).rejects.toThrow(/body/);
    expect(s.pending()).toBe(0);
  });

  it('sets an unreadable file aside and starts empty', async () => {
    const dir = await tmp();
    await writeFile(join(dir, 'schedules.json'), '[{"name":');
    const s = await start(dir, recorder().deliver);
    expect(s.pending()).toBe(0);
    await s.schedule({ name: 'fresh', at: Date.now() + 60_000, queue: 'task-reminders', body: '{}' });
    expect((await saved(dir)).map((e) => e.name)).toEqual(['fresh']);
  });
});
