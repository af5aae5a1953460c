import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { log } from '../../shared/log.ts';
import type { CommandQueue } from '../../shared/ports/commands.ts';
import type { ScheduledCommand, SchedulerPort } from '../../shared/ports/scheduler.ts';

/**
 * The local scheduler adapter (architecture §3 'scheduler'): the pending schedules live in
 * `<dataDir>/schedules.json` (written to a temp file and renamed, so a crash never leaves half a
 * file) and each is armed with a timer. When one fires, its body is handed to `deliver` (the
 * runtime's durable local queue) and only once that has succeeded is it removed from the file: a
 * crash in between fires it again at the next start (at least once, like EventBridge Scheduler).
 * A failed delivery is retried every `retryMs`. At start every saved schedule is armed again; one
 * that came due while the runtime was down fires at once.
 */
export interface LocalScheduler extends SchedulerPort {
  /** clear the timers and write the file; deliveries in flight are awaited */
  stop(): Promise<void>;
  /** schedules not yet delivered */
  pending(): number;
}

export type Deliver = (queue: CommandQueue, body: string) => Promise<void>;

export interface LocalSchedulerOptions {
  /** wait before retrying a failed delivery, ms @default 5000 */
  retryMs?: number;
}

/** setTimeout's largest delay (a signed 32-bit ms count, ~24.8 days); longer waits are chained. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** EventBridge Scheduler's limits, checked here too so local use fails like AWS would. */
const NAME = /^[0-9A-Za-z_.-]{1,64}$/;
const MAX_BODY = 8192;

export async function startLocalScheduler(dataDir: string, deliver: Deliver, opts: LocalSchedulerOptions = {}): Promise<LocalScheduler> {
  const retryMs = opts.retryMs ?? 5000;
  const file = join(dataDir, 'schedules.json');
  await mkdir(dataDir, { recursive: true });

  // name -> schedule; an entry object is replaced (never mutated) when its name is scheduled again,
  // so a firing compares identities to know whether it is still current
  const entries = new Map<string, ScheduledCommand>();
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let stopping = false;

  const raw = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '[]';
    throw e;
  });
  try {
    for (const s of JSON.parse(raw) as ScheduledCommand[]) entries.set(s.name, s);
  } catch {
    // keep the unreadable file for a look, start empty rather than not at all
    const aside = `${file}.unreadable-${Date.now()}`;
    await rename(file, aside);
    log('error', 'scheduler.file_unreadable', { file: aside });
  }

  // One write at a time; a change made while a write runs queues one more, which snapshots the
  // state when it starts, so every awaited save() covers the change made before it.
  let writing: Promise<void> = Promise.resolve();
  let queued = false;
  const save = (): Promise<void> => {
    if (!queued) {
      queued = true;
      writing = writing
        .catch(() => undefined)
        .then(async () => {
          queued = false;
          await writeFile(`${file}.tmp`, JSON.stringify([...entries.values()]));
          await rename(`${file}.tmp`, file);
        });
    }
    return writing;
  };

  const disarm = (name: string) => {
    clearTimeout(timers.get(name));
    timers.delete(name);
  };

  const arm = (entry: ScheduledCommand, delay = entry.at - Date.now()) => {
    disarm(entry.name);
    if (stopping) return;
    const wait = Math.max(0, delay);
    const t = wait > MAX_TIMER_MS ? setTimeout(() => arm(entry), MAX_TIMER_MS) : setTimeout(() => fire(entry), wait);
    timers.set(entry.name, t);
  };

  const fire = (entry: ScheduledCommand) => {
    timers.delete(entry.name);
    if (entries.get(entry.name) !== entry) return;
    const p = (async () => {
      try {
        await deliver(entry.queue, entry.body);
      } catch (e) {
        log('warn', 'scheduler.deliver_failed', { name: entry.name, queue: entry.queue, error: String((e as Error)?.message ?? e) });
        if (entries.get(entry.name) === entry) arm(entry, retryMs);
        return;
      }
      // replaced or cancelled meanwhile: the newer state is already saved
      if (entries.get(entry.name) !== entry) return;
      entries.delete(entry.name);
      await save().catch((e: unknown) => {
        // still in the file: delivered again at the next start (at least once)
        log('error', 'scheduler.save_failed', { error: String((e as Error)?.message ?? e) });
      });
    })();
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  for (const entry of entries.values()) arm(entry);

  return {
    async schedule(cmd) {
      if (stopping) throw new Error('the local scheduler is stopped');
      if (!NAME.test(cmd.name)) throw new Error(`schedule name must be 1-64 of [0-9A-Za-z_.-]: ${cmd.name}`);
      if (!Number.isFinite(cmd.at)) throw new Error(`schedule ${cmd.name}: at is not a time`);
      if (Buffer.byteLength(cmd.body) > MAX_BODY) throw new Error(`schedule ${cmd.name}: body over ${MAX_BODY} bytes`);
      const entry: ScheduledCommand = { name: cmd.name, at: cmd.at, queue: cmd.queue, body: cmd.body };
      const previous = entries.get(entry.name);
      entries.set(entry.name, entry);
      try {
        await save();
      } catch (e) {
        // not durable: put back what was there (the caller sees the error and may retry)
        if (entries.get(entry.name) === entry) {
          if (previous) {
            entries.set(previous.name, previous);
            arm(previous);
          } else entries.delete(entry.name);
        }
        throw e;
      }
      // a later schedule() or cancel() of this name may have run during the write
      if (entries.get(entry.name) === entry) arm(entry);
    },
    async cancel(name) {
      disarm(name);
      if (!entries.delete(name)) return;
      await save();
    },
    pending: () => entries.size,
    async stop() {
      stopping = true;
      for (const name of [...timers.keys()]) disarm(name);
      await Promise.allSettled([...inFlight]);
      await save();
    },
  };
}
