import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fastMonotonicUlid } from '../../shared/ids.ts';
import type { SQSEvent, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { deadLetterReason } from '../../shared/ops/dead-letter.rules.ts';
import { GroupCommit } from '../../shared/group-commit.ts';

/**
 * Local stand-in for an SQS queue + Lambda event source mapping + DLQ.
 * Each accepted message is a JSON file (write, then rename: never half-written) under
 * `<dataDir>/queues/<name>/`, so nothing accepted is lost on restart: files are reloaded and
 * redelivered at start (at-least-once, like SQS). Handlers get real `SQSEvent` batches and answer
 * with `batchItemFailures`; a failed record is retried with backoff and, after
 * `maxReceiveCount` receives, moved to `<name>-dlq/` with the reason.
 * (fauxqs speaks the SQS API but keeps queues in memory; a restart would lose them.)
 */
export type SqsHandler = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

/** What a message's file holds: the Stored fields without the in-memory ones. */
function rowOf(s: Stored): Omit<Stored, 'persisted' | 'segment'> {
  const { persisted: _, segment: __, ...row } = s;
  return row;
}

/** Message ids: ULIDs, monotonic within this process, so `id` order is send order (FIFO groups rely on it). */
const ulid = fastMonotonicUlid();

interface Stored {
  id: string;
  /** FIFO message group (SQS MessageGroupId): one group's messages are delivered in order, one batch in flight at a time */
  groupId?: string;
  body: string;
  receiveCount: number;
  /** epoch ms before which it is not delivered (backoff) */
  notBefore: number;
  /** in memory only: the first write of its file (a handled message's file is removed after it) */
  persisted?: Promise<void>;
  /** in memory only: the shared file it was accepted in, while it still needs it (see Segment) */
  segment?: Segment;
  sentAt: number;
  lastError?: string;
  /** epoch ms: first failure of the current run of "service unreachable" failures (see OUTAGE_GRACE_MS) */
  outageSince?: number;
  /** receives that failed because a service was unreachable; not counted against maxReceiveCount */
  outageReceives?: number;
}

/**
 * Messages accepted together (one sendMany, or several sent while the queue's previous file write
 * was under way: a group commit) are kept in ONE file,
 * `<first id>-seg.json` = `{ "segment": Stored[] }`, instead of a file each. Creating and removing
 * a small file costs this VM's ext4 (mounted with discard) about as much CPU as DynamoDB Local
 * spends on a PutItem, and every stored message used to cost ~11 of them (the webhook, then each
 * subscription's copy of each event). A segment's file is removed once none of its messages needs
 * it: each was handled, or was written to its own `<id>.json` (a retry's new receive count and
 * backoff) or to the DLQ. A message found both in a segment and in its own file at start is taken
 * from its own file (the newer state). A crash redelivers a segment's handled messages too; the
 * consumers are idempotent by event id (receipts), as they already are for SQS's redeliveries.
 */
interface Segment {
  file: string;
  /** its messages that still need it */
  open: number;
}

/**
 * A failure because a service the consumer needs is unreachable (DynamoDB Local restarting, a
 * connection refused or reset), not because of the record. In AWS every receive waits a
 * visibility timeout (minutes), so a queue's few receives outlast a restart; locally a retry comes
 * within a second, so such receives are not counted for up to OUTAGE_GRACE_MS and retried every
 * few seconds instead (issue 23 item 2: a DynamoDB Local restart must not dead-letter anything).
 */
export const isUnavailableError = (error: string): boolean => /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|socket hang up|TimeoutError|other side closed|ServiceUnavailable/i.test(error);
/** How long unreachable-service failures are retried without counting (ms). */
export const OUTAGE_GRACE_MS = 120_000;
const outageBackoffMs = (n: number): number => Math.min(5_000, 500 * 2 ** (n - 1));

/** A record in a local dead-letter queue (`<dataDir>/queues/<name>-dlq/<id>.json`). */
export interface DeadLetter {
  /** the source queue */
  queue: string;
  id: string;
  body: string;
  receiveCount: number;
  /** epoch ms: first accepted by the queue */
  sentAt: number;
  /** epoch ms: moved to the DLQ */
  deadLetteredAt?: number;
  /** why, in words (shared/ops/dead-letter.rules.ts) */
  reason: string;
}

/**
 * Every dead letter under a data dir, oldest first, read from the files (works whether or not the
 * runtime is running).
 */
export async function readDeadLetters(dataDir: string): Promise<DeadLetter[]> {
  const root = join(dataDir, 'queues');
  const dirs = (await readdir(root).catch(() => [] as string[])).filter((d) => d.endsWith('-dlq')).sort();
  const out: DeadLetter[] = [];
  for (const d of dirs) {
    const queue = d.slice(0, -'-dlq'.length);
    for (const f of (await readdir(join(root, d))).filter((n) => n.endsWith('.json')).sort()) {
      try {
        const s = JSON.parse(await readFile(join(root, d, f), 'utf8')) as Stored & { deadLetteredAt?: number; reason?: string };
        out.push({ queue, id: s.id, body: s.body, receiveCount: s.receiveCount, sentAt: s.sentAt, deadLetteredAt: s.deadLetteredAt, reason: s.reason ?? deadLetterReason(queue, s.receiveCount, s.lastError ?? '') });
      } catch {
        out.push({ queue, id: f.slice(0, -'.json'.length), body: '', receiveCount: 0, sentAt: 0, reason: 'the dead-letter file is unreadable (not JSON)' });
      }
    }
  }
  return out.sort((a, b) => (a.deadLetteredAt ?? 0) - (b.deadLetteredAt ?? 0));
}

/**
 * Move a stopped runtime's dead letters of `queue` back into the queue's folder, with their receive
 * count reset: the next start delivers them (`LocalQueue.start` reloads the folder).
 * @returns how many were moved
 */
export async function redriveDeadLetterFiles(dataDir: string, queue: string): Promise<number> {
  const dlq = join(dataDir, 'queues', `${queue}-dlq`);
  const files = (await readdir(dlq).catch(() => [] as string[])).filter((f) => f.endsWith('.json'));
  await mkdir(join(dataDir, 'queues', queue), { recursive: true });
  for (const f of files) {
    const s = JSON.parse(await readFile(join(dlq, f), 'utf8')) as Stored;
    const file = join(dataDir, 'queues', queue, f);
    await writeFile(`${file}.tmp`, JSON.stringify({ id: s.id, body: s.body, receiveCount: 0, notBefore: 0, sentAt: s.sentAt } satisfies Stored));
    await rename(`${file}.tmp`, file);
    await unlink(join(dlq, f));
  }
  return files.length;
}

/**
 * The last error of each failed local record, by message id (the consumer wrapper reports them
 * through functions/lib/sqs.ts setRecordFailureSink, which the runtime points here): a
 * `batchItemFailures` answer carries ids only, as in SQS.
 */
export const recordErrors = new Map<string, string>();

/**
 * Ingest first, on one machine. Every local queue's consumer shares one DynamoDB Local (one JVM on
 * a few cores), so at a burst the background consumers (search, analytics, rules, web push,
 * webhooks, broadcasts' stats…) took the table's time from the ones a person waits for, and a
 * message reached the socket seconds late (issue 23). The gate gives the live lane (storing inbound
 * messages, sending outbound ones, the socket fan-out) priority: while any live queue has work,
 * background queues together start at most `floor` batches at a time (never none, so they keep
 * moving), optionally resting between batches so that they are busy at most `duty` of the time;
 * when the live lane is empty they run at their own concurrency again and catch up. Within the
 * live lane, `chain(up, down)` puts downstream first: an inbound queue waits while a queue it feeds
 * (the rules engine, the fan-out) has a backlog.
 * In AWS each queue has its own Lambda and DynamoDB scales, so there is nothing to gate.
 */
export class LaneGate {
  private readonly live = new Set<LocalQueue>();
  private readonly background = new Set<LocalQueue>();
  private backgroundInFlight = 0;

  /**
   * @param floor background batches allowed in flight (all background queues together) while the live
   * lane is busy; env CHORUS_BACKGROUND_FLOOR in the runtime. 1 by measurement: bench:ingest's paced
   * run (100/s offered) kept up at 60/s with p95 4.0 s, against 42–44/s and p95 7.4–8.3 s with 2
   * (A/B interleaved, 600 messages, in memory, machine loaded 3–8).
   */
  constructor(
    private readonly floor = 1,
    /**
     * the share of wall time the background lane may be busy while the live lane is (env
     * CHORUS_BACKGROUND_DUTY): after a background batch of d ms, the next starts no sooner than
     * d × (1 − duty) / duty later, unless the live lane is empty (then at once). Default 1 (off).
     * 0.1 helped the live lane's latency:
     * `npm run bench:hot-chat -- --messages 2000 --others 2000`, p95 one chat at 80/s / 100 chats at
     * 100/s: duty 1 (the floor alone) 215 / 1,430 ms, 0.5: 219 / 902, 0.33: 275 / 731, 0.2: 189 /
     * 534, 0.1: 105–115 / 252–292, 0.05: 106–119 / 234–282; the background lane caught up 1.5–4.4 s
     * after each 10 s phase at every setting. But with 0.1 and a 500 ms quiet period as defaults and
     * no lag limit, CI's tickets e2e saw a ticket subject search still empty 60 s after 100 tickets
     * were created: the rest follows every batch, so background queues with small batches (10
     * records) starved while live queues kept getting events. Hence `maxLagMs`; but with a 15 s lag
     * limit CI failed again (the same search, and media-out's Graph uploads not done by `rt.idle()`
     * under the full suite's load): a lagging queue is held at about that lag while the live lane
     * stays busy. So still opt-in.
     */
    private readonly duty = 1,
    /**
     * how long the live lane counts as busy after it emptied (env CHORUS_BACKGROUND_QUIET_MS): a
     * chat at 20 messages/s empties it between messages, and the background queues then started at
     * full concurrency, so the next message waited behind their batches. 500 by measurement: `npm
     * run bench:wa-web-hot-group` (duty 0.1), paced group p50 / p95: 0 ms: 51–89 / 473–866 ms; 500 ms:
     * 44–47 / 419–429 ms. Default 0 (off), with the duty cycle (see `duty`).
     */
    private readonly quietMs = 0,
    /**
     * the longest a background queue's oldest waiting message may wait before that queue skips the
     * duty cycle's rest (still within `floor`), ms (env CHORUS_BACKGROUND_MAX_LAG_MS). The rest only
     * makes sense while the background lane keeps up: with it every 'a moment later' (search, web
     * push, analytics) stays within about this lag, however long the live lane stays busy. Default
     * 15 s (it matters only with a duty cycle), by measurement: `npm run bench:hot-chat -- --messages 2000 --others 2000` with duty 0.1
     * and quiet 500, p95 one chat at 80/s / 100 chats at 100/s: no limit 92.6 / 141.7 ms; 15 s 86.6 /
     * 174.7 and 84.7 / 162.6 ms; 5 s 157.3 / 699.8 ms; 2 s 196.3 / 760.0 ms (duty 1 that day: 174.2 /
     * 372.6 ms). Under a burst the background lane is seconds behind (it caught up 1.5–3.6 s after
     * each 10 s phase), so a short limit gives the live lane's priority back at once.
     */
    private readonly maxLagMs = 15_000,
  ) {}

  /** While the live lane is busy, no background batch starts before this (epoch ms): the duty cycle's rest. */
  private restUntil = 0;
  private restTimer: NodeJS.Timeout | undefined;

  /** Put a queue in a lane (LocalQueue's constructor does it from its options). */
  join(q: LocalQueue, lane: 'live' | 'background'): void {
    (lane === 'live' ? this.live : this.background).add(q);
  }

  /** Does any live queue have messages waiting or being handled, or had it within `quietMs`? */
  liveBusy(): boolean {
    for (const q of this.live) if (q.depth > 0) return true;
    return !this.hurried && Date.now() - this.liveLastAt < this.quietMs;
  }

  /** Callers waiting for the runtime to be idle (tests, benchmarks between phases): no rests then. */
  private hurried = 0;

  /**
   * Run `fn` (a wait for idle) with the background lane's rests and quiet period off: whoever waits
   * for idle wants everything drained, as the batching window already assumes (LocalQueue.idle).
   */
  async hurry<T>(fn: () => Promise<T>): Promise<T> {
    this.hurried++;
    this.wakeBackground();
    try {
      return await fn();
    } finally {
      this.hurried--;
    }
  }

  /** When the live lane last became empty (epoch ms). */
  private liveLastAt = 0;
  private quietTimer: NodeJS.Timeout | undefined;

  /**
   * May a background queue start one more batch now? @param oldestAt when that queue's oldest
   * waiting message was sent (epoch ms): once it has waited `maxLagMs`, the rest is skipped.
   */
  mayStartBackground(oldestAt?: number): boolean {
    if (!this.liveBusy()) return true;
    if (this.backgroundInFlight >= this.floor) return false;
    const now = Date.now();
    if (now >= this.restUntil || this.hurried) return true;
    const lagAt = oldestAt === undefined ? Infinity : oldestAt + this.maxLagMs;
    if (now >= lagAt) return true;
    // wake at the rest's end, or when this queue's oldest message reaches the lag limit if sooner
    const wakeAt = Math.min(this.restUntil, lagAt);
    if (this.restTimer && wakeAt < this.restTimerAt) {
      clearTimeout(this.restTimer);
      this.restTimer = undefined;
    }
    if (!this.restTimer) {
      this.restTimerAt = wakeAt;
      this.restTimer = setTimeout(() => {
        this.restTimer = undefined;
        this.wakeBackground();
      }, wakeAt - now);
      this.restTimer.unref?.();
    }
    return false;
  }
  private restTimerAt = 0;

  backgroundStarted(): void {
    this.backgroundInFlight++;
  }

  /**
   * A background batch ended (it ran `ms`): its slot may go to another background queue, after a
   * rest that keeps the background lane busy at most `duty` of the time while the live lane is.
   */
  backgroundFinished(ms = 0): void {
    this.backgroundInFlight--;
    if (this.duty < 1 && this.liveBusy()) this.restUntil = Math.max(this.restUntil, Date.now() + (ms * (1 - this.duty)) / this.duty);
    this.wakeBackground();
  }

  /** A live queue became empty: background queues run at full concurrency again. */
  liveDrained(): void {
    this.liveLastAt = Date.now();
    if (!this.quietMs) {
      if (!this.liveBusy()) this.wakeBackground();
      return;
    }
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      if (!this.liveBusy()) this.wakeBackground();
    }, this.quietMs);
    this.quietTimer.unref?.();
  }

  private wakeBackground(): void {
    for (const q of this.background) q.wake();
  }

  private readonly upstream = new Set<LocalQueue>();
  private readonly downstream = new Set<LocalQueue>();

  /**
   * Downstream first: `up` (an inbound queue, whose batches create the events) starts no batch
   * while a `down` queue (the rules engine, the socket fan-out: what those events feed) has
   * deliverable messages that no free slot took. Finishing started work before taking new work
   * keeps the latency of work already in the system low when the machine is saturated (issue 17:
   * stored → rule action done); the newer webhooks wait on the durable inbound queue instead.
   */
  chain(up: LocalQueue, down: LocalQueue): void {
    this.upstream.add(up);
    this.downstream.add(down);
  }

  /** May an upstream queue start a batch now? (no downstream queue has a backlog) */
  mayStartUpstream(q: LocalQueue): boolean {
    if (!this.upstream.has(q) || this.hurried) return true;
    for (const d of this.downstream) if (d.backlogged()) return false;
    return true;
  }

  /** A downstream queue took a batch or finished one: upstream queues may go on. */
  downstreamMoved(q: LocalQueue): void {
    if (!this.downstream.has(q)) return;
    for (const u of this.upstream) u.wake();
  }
}

export class LocalQueue {
  private readonly dir: string;
  private readonly dlqDir: string;
  private readonly ready: Stored[] = [];
  /** batches being handled */
  private inFlight = 0;
  /** messages being handled */
  private inFlightCount = 0;
  /** FIFO groups with a batch being handled */
  private readonly busyGroups = new Set<string>();
  /**
   * Accepted messages' files, one write at a time: every sendMany made while one is under way
   * shares the next (shared/group-commit.ts). A write of one message is its own `<id>.json`, of
   * more one segment file (see Segment).
   */
  private readonly files = new GroupCommit<Stored[], void>(async (groups) => {
    await this.writeFiles(groups.flat());
    return groups.map(() => undefined);
  });
  private timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private paused = false;
  private idleWaiters: Array<() => void> = [];
  deadLettered = 0;
  /** records whose delivery failed (each failed attempt counts; benchmarks read it) */
  failedDeliveries = 0;

  constructor(
    readonly name: string,
    dataDir: string,
    private readonly handler: SqsHandler,
    private readonly opts: {
      maxReceiveCount: number;
      batchSize: number;
      concurrency?: number;
      backoffMs?: (n: number) => number;
      gate?: LaneGate;
      lane?: 'live' | 'background';
      /**
       * SQS's batching window (ms; events/catalog.ts batchingWindowMs): a batch smaller than
       * `batchSize` waits until its oldest message has been deliverable this long. Skipped while
       * someone awaits `idle()` (tests and benchmarks drain at once). @default 0
       */
      batchWindowMs?: number;
    },
  ) {
    this.dir = join(dataDir, 'queues', name);
    this.dlqDir = join(dataDir, 'queues', `${name}-dlq`);
    if (opts.gate && opts.lane) opts.gate.join(this, opts.lane);
  }

  /** Are messages deliverable now but not taken (every slot busy)? Never while paused or stopped. */
  backlogged(): boolean {
    if (this.stopped || this.paused || this.inFlight < (this.opts.concurrency ?? 4)) return false;
    const now = Date.now();
    return this.ready.some((s) => s.notBefore <= now);
  }

  /** Deliver what may be delivered now (the lane gate calls it when a slot frees up). */
  wake(): void {
    this.pump();
  }

  /** Create the folders and reload what a previous run left (redelivered now). */
  async start(): Promise<number> {
    await mkdir(this.dir, { recursive: true });
    await mkdir(this.dlqDir, { recursive: true });
    const files = (await readdir(this.dir)).filter((f) => f.endsWith('.json')).sort();
    const own = new Map<string, Stored>();
    const segments: Array<{ file: string; rows: Stored[] }> = [];
    for (const f of files) {
      try {
        const parsed = JSON.parse(await readFile(join(this.dir, f), 'utf8')) as Stored | { segment: Stored[] };
        if ('segment' in parsed && Array.isArray(parsed.segment)) segments.push({ file: join(this.dir, f), rows: parsed.segment });
        else own.set((parsed as Stored).id, parsed as Stored);
      } catch {
        await rename(join(this.dir, f), join(this.dlqDir, f)).catch(() => undefined);
      }
    }
    let loaded = 0;
    for (const { file, rows } of segments) {
      // a message with its own file has moved on from the segment (a retry's newer state)
      const live = rows.filter((r) => !own.has(r.id));
      if (!live.length) {
        await unlink(file).catch(() => undefined);
        continue;
      }
      const segment: Segment = { file, open: live.length };
      for (const r of live) this.enqueueReady({ ...r, notBefore: 0, segment });
      loaded += live.length;
    }
    for (const s of own.values()) {
      s.notBefore = 0;
      this.enqueueReady(s);
    }
    this.deadLettered = (await readdir(this.dlqDir)).filter((f) => f.endsWith('.json')).length;
    this.pump();
    return loaded + own.size;
  }

  /**
   * Accept a message durably (resolves after the file is in place).
   * @param opts.groupId FIFO message group, as SQS FIFO's MessageGroupId: messages of one group are
   *   delivered in the order they were sent, and never two batches of one group at once (a failed
   *   one holds its group back until its retry). Messages without a group are delivered as before.
   */
  async send(body: string, opts: { groupId?: string } = {}): Promise<void> {
    await this.sendMany([{ body, groupId: opts.groupId }]);
  }

  /**
   * Accept several messages at once (the local bus: all of a transaction's events for this queue).
   * Ids are taken in the given order, so each FIFO group keeps it. They are delivered at once,
   * while their files are written (a delivered message's file is removed only after its write
   * finished); the promise resolves once every file is in place, so a caller that deletes its
   * source afterwards (the outbox relay) never loses one: at-least-once, as before.
   */
  async sendMany(items: Array<{ body: string; groupId?: string }>): Promise<void> {
    if (this.stopped) throw new Error(`queue ${this.name} is stopped`);
    if (!items.length) return;
    const now = Date.now();
    const stored = items.map(({ body, groupId }): Stored => ({ id: ulid(), body, receiveCount: 0, notBefore: 0, sentAt: now, ...(groupId ? { groupId } : {}) }));
    const persisted = this.files.add(stored);
    for (const s of stored) {
      s.persisted = persisted;
      this.enqueueReady(s);
    }
    this.pump();
    await persisted;
  }

  /** Write accepted messages' file: their own `<id>.json` for one, a segment file for more. */
  private async writeFiles(items: Stored[]): Promise<void> {
    if (items.length === 1) return this.persist(items[0]!);
    const file = join(this.dir, `${items[0]!.id}-seg.json`);
    await writeFile(`${file}.tmp`, JSON.stringify({ segment: items.map(rowOf) }));
    await rename(`${file}.tmp`, file);
    const segment: Segment = { file, open: items.length };
    for (const s of items) s.segment = segment;
  }

  /**
   * The message no longer needs the file it was accepted in: its segment's file is removed once
   * none of the segment's messages does, a message of its own has its file removed.
   */
  private async release(s: Stored): Promise<void> {
    const segment = s.segment;
    if (!segment) return void (await unlink(join(this.dir, `${s.id}.json`)).catch(() => undefined));
    s.segment = undefined;
    if (--segment.open === 0) await unlink(segment.file).catch(() => undefined);
  }

  /** Put a message back among the ready ones in id (= send) order, so a retried one keeps its place in its group. */
  private enqueueReady(s: Stored): void {
    const r = this.ready;
    if (!r.length || r[r.length - 1]!.id < s.id) return void r.push(s);
    let lo = 0;
    let hi = r.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (r[mid]!.id < s.id) lo = mid + 1;
      else hi = mid;
    }
    r.splice(lo, 0, s);
  }

  /**
   * Redrive: every dead letter of this queue goes back on it (receive count reset), as SQS's
   * StartMessageMoveTask does. Each file is written into the queue's folder before it leaves the
   * DLQ's, so a crash in between redelivers rather than loses it.
   * @returns how many were moved
   */
  async redrive(): Promise<number> {
    const files = (await readdir(this.dlqDir)).filter((f) => f.endsWith('.json')).sort();
    for (const f of files) {
      const d = JSON.parse(await readFile(join(this.dlqDir, f), 'utf8')) as Stored;
      const s: Stored = { id: d.id, body: d.body, receiveCount: 0, notBefore: 0, sentAt: d.sentAt, ...(d.groupId ? { groupId: d.groupId } : {}) };
      await this.persist(s);
      await unlink(join(this.dlqDir, f));
      this.enqueueReady(s);
    }
    this.deadLettered = Math.max(0, this.deadLettered - files.length);
    this.pump();
    return files.length;
  }

  /** Messages waiting or being handled. */
  get depth(): number {
    return this.ready.length + this.inFlightCount;
  }

  /** Resolves when nothing is waiting or in flight (tests, benchmarks). Backoff timers count as waiting. */
  idle(): Promise<void> {
    if (this.depth === 0) return Promise.resolve();
    const p = new Promise<void>((r) => this.idleWaiters.push(r));
    // a batch held by the batching window goes now: whoever waits for idle wants it drained
    if (this.opts.batchWindowMs) this.pump();
    return p;
  }

  /** Stop delivering (messages are still accepted and kept); `resume` delivers again. */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    while (this.inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  }

  /** Write the message's own file (`<id>.json`); a segment it was in no longer holds it. */
  private async persist(s: Stored): Promise<void> {
    const file = join(this.dir, `${s.id}.json`);
    await writeFile(`${file}.tmp`, JSON.stringify(rowOf(s)));
    await rename(`${file}.tmp`, file);
    if (s.segment) await this.release(s);
  }

  private pump(): void {
    if (this.stopped || this.paused) return;
    const concurrency = this.opts.concurrency ?? 4;
    const gate = this.opts.lane === 'background' ? this.opts.gate : undefined;
    while (this.inFlight < concurrency && (!gate || gate.mayStartBackground(this.ready[0]?.sentAt)) && (!this.opts.gate || this.opts.gate.mayStartUpstream(this))) {
      const now = Date.now();
      const batch: Stored[] = [];
      // groups that may not give more this round: in flight elsewhere, or whose first waiting message is backing off
      const held = new Set(this.busyGroups);
      const taken: number[] = [];
      for (let i = 0; i < this.ready.length && batch.length < this.opts.batchSize; i++) {
        const s = this.ready[i]!;
        if (s.groupId !== undefined && held.has(s.groupId)) continue;
        if (s.notBefore > now) {
          if (s.groupId !== undefined) held.add(s.groupId);
          continue;
        }
        batch.push(s);
        taken.push(i);
      }
      if (!batch.length) break;
      const windowMs = this.opts.batchWindowMs ?? 0;
      if (windowMs > 0 && batch.length < this.opts.batchSize && !this.idleWaiters.length) {
        // the batching window: wait for more until the oldest has been deliverable windowMs
        let oldest = Infinity;
        for (const b of batch) oldest = Math.min(oldest, Math.max(b.sentAt, b.notBefore));
        if (now - oldest < windowMs) {
          this.pumpAt(oldest + windowMs);
          break;
        }
      }
      for (let k = taken.length - 1; k >= 0; k--) this.ready.splice(taken[k]!, 1);
      const groups = new Set(batch.flatMap((s) => (s.groupId !== undefined ? [s.groupId] : [])));
      for (const g of groups) this.busyGroups.add(g);
      this.inFlight++;
      this.inFlightCount += batch.length;
      gate?.backgroundStarted();
      const started = Date.now();
      void this.deliver(batch).finally(() => {
        for (const g of groups) this.busyGroups.delete(g);
        this.inFlight--;
        this.inFlightCount -= batch.length;
        this.pump();
        this.checkIdle();
        if (gate) gate.backgroundFinished(Date.now() - started);
        else if (this.opts.lane === 'live' && this.depth === 0) this.opts.gate?.liveDrained();
        this.opts.gate?.downstreamMoved(this);
      });
    }
    this.armWake();
    this.checkIdle();
  }

  /** When the queue's one wake-up timer pumps (epoch ms), and the timer. */
  private wakeAt = Infinity;
  private wakeTimer: NodeJS.Timeout | undefined;

  /**
   * Pump at `at` (epoch ms) unless a wake-up is already due earlier: the batching window of a
   * waiting batch, or the earliest backing-off message (armWake). One timer serves both; each
   * pump arms the next wake-up it needs.
   */
  private pumpAt(at: number): void {
    if (this.wakeTimer && this.wakeAt <= at) return;
    if (this.wakeTimer) {
      clearTimeout(this.wakeTimer);
      this.timers.delete(this.wakeTimer);
    }
    this.wakeAt = at;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.wakeTimer = undefined;
      this.wakeAt = Infinity;
      this.pump();
    }, Math.max(1, at - Date.now() + 1));
    this.wakeTimer = t;
    this.timers.add(t);
  }

  /**
   * Make sure a timer pumps when the earliest backing-off message becomes due. The retry timers of
   * `deliver` can fire a little before `Date.now()` reaches a message's `notBefore` (libuv's loop
   * clock lags the wall clock under load); without this the queue would then wait forever.
   */
  private armWake(): void {
    if (this.stopped || this.paused) return;
    const now = Date.now();
    let next = Infinity;
    for (const s of this.ready) if (s.notBefore > now && s.notBefore < next) next = s.notBefore;
    if (next !== Infinity) this.pumpAt(next);
  }

  private checkIdle(): void {
    if (this.depth === 0 && this.idleWaiters.length) for (const w of this.idleWaiters.splice(0)) w();
  }

  private async deliver(batch: Stored[]): Promise<void> {
    for (const s of batch) s.receiveCount++;
    const records: SQSRecord[] = batch.map((s) => ({
      messageId: s.id,
      receiptHandle: s.id,
      body: s.body,
      attributes: {
        ApproximateReceiveCount: String(s.receiveCount),
        SentTimestamp: String(s.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
        ...(s.groupId ? { MessageGroupId: s.groupId } : {}),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${this.name}`,
      awsRegion: 'local',
    }));
    let failed: Set<string>;
    let error = '';
    try {
      const res = await this.handler({ Records: records });
      failed = new Set((res?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (e) {
      error = String((e as Error)?.message ?? e);
      failed = new Set(batch.map((s) => s.id));
    }
    for (const s of batch) {
      const wasError = recordErrors.get(s.id);
      recordErrors.delete(s.id);
      // its file may still be being written (sendMany delivers at once): every branch below removes or rewrites it
      await s.persisted?.catch(() => undefined);
      if (!failed.has(s.id)) {
        await this.release(s);
        continue;
      }
      this.failedDeliveries++;
      s.lastError = error || wasError || 'reported as failed by the consumer';
      const now = Date.now();
      if (isUnavailableError(s.lastError) && now - (s.outageSince ?? now) < OUTAGE_GRACE_MS) {
        s.outageSince ??= now;
        s.outageReceives = (s.outageReceives ?? 0) + 1;
        await this.retryLater(s, outageBackoffMs(s.outageReceives));
        continue;
      }
      s.outageSince = undefined;
      if (s.receiveCount - (s.outageReceives ?? 0) >= this.opts.maxReceiveCount) {
        const reason = deadLetterReason(this.name, s.receiveCount, s.lastError);
        await writeFile(join(this.dlqDir, `${s.id}.json`), JSON.stringify({ ...rowOf(s), deadLetteredAt: Date.now(), reason }));
        await this.release(s);
        this.deadLettered++;
        console.error(JSON.stringify({ level: 'error', msg: 'queue.dead_lettered', queue: this.name, id: s.id, reason }));
        continue;
      }
      await this.retryLater(s, (this.opts.backoffMs ?? ((n: number) => Math.min(30_000, 200 * 2 ** (n - 1))))(s.receiveCount));
    }
  }

  /** Put a failed message back, due in `delayMs`, and pump then. */
  private async retryLater(s: Stored, delayMs: number): Promise<void> {
    s.notBefore = Date.now() + delayMs;
    await this.persist(s);
    this.enqueueReady(s);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.pump();
    }, delayMs);
    this.timers.add(t);
  }
}
