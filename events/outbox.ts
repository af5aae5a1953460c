import { createHash } from 'node:crypto';
import { db } from '../shared/db/service.ts';
import type { TxEntities, TxItem } from '../shared/db/transaction.ts';
import { OUTBOX_SHARDS } from '../shared/outbox/outbox-event.entity.ts';
import { config } from '../shared/config.ts';
import { log } from '../shared/log.ts';
import { inLambda } from '../shared/metrics.ts';
import { entryOf, putEntries, type BusEntry, type PublishInput } from './publish.ts';
import type { EventName } from './catalog.ts';

/**
 * The transactional outbox (architecture.md §5). A use case writes its change and the domain
 * events it causes in ONE DynamoDB transaction (`commitWithEvents` in shared/db/transaction.ts
 * calls `outboxRecords` + `outboxPuts`), so a committed change always has its events stored.
 * Then they reach the bus by one of three ways, whichever comes first; consumers dedupe by
 * `metadata.id` (functions/lib/dedupe.ts), so an event relayed twice is handled once:
 *
 * 1. right after the commit, in the same process (`relayCommitted`: publish, then delete the
 *    rows, coalesced outside Lambda) — the low-latency path (off when `OUTBOX_PUBLISH_ON_COMMIT=0`);
 * 2. locally, the runtime's poller (`startOutboxPoller`), which Queries every shard for rows
 *    older than a grace period (default 3 s) at start and every second: what recovers the events
 *    of a process that died between its commit and its publish;
 * 3. in AWS, the table's stream (functions/consumers/outbox-relay.ts): every INSERTed outbox row,
 *    unless the in-process relay already deleted it (`relayStreamRows`).
 */

/** One event as the outbox stores it: the bus entry plus its row key. */
export interface OutboxRecord {
  shard: number;
  /** epoch ms */
  written_at: number;
  event_id: string;
  entry: BusEntry;
}

/** TTL of an outbox row (backstop only; rows are deleted once published): 3 days, in seconds. */
const OUTBOX_TTL_S = 3 * 24 * 3600;

/** Shard of an event id: a stable hash, so a retried write lands on the same row. */
export function shardOf(eventId: string): number {
  return createHash('sha1').update(eventId).digest().readUInt32BE(0) % OUTBOX_SHARDS;
}

/**
 * Validate and stamp events (entryOf: catalogue schema, metadata) before anything is written.
 * @param now epoch ms, the rows' `written_at`
 * @throws ZodError when an event breaks its contract (nothing is written: the caller's transaction is not sent)
 */
export function outboxRecords(events: PublishInput[], now = Date.now()): OutboxRecord[] {
  return events.map((e) => {
    const entry = entryOf(e);
    const event_id = entry.detail.metadata.id;
    return { shard: shardOf(event_id), written_at: now, event_id, entry };
  });
}

/**
 * Bytes of event JSON one outbox row holds at most: DynamoDB's item limit is 400 KB, and a
 * transaction's 4 MB; a commit's events past this go in further rows.
 */
const ROW_MAX_BYTES = 300_000;

/** Bytes an event takes in an outbox row: its detail's JSON in UTF-8 (DynamoDB counts bytes), plus the row's share per event. */
const rowBytes = (detail: unknown) => Buffer.byteLength(JSON.stringify(detail)) + 200;

/**
 * How many outbox rows events of these sizes take (bytes each, as rowBytes counts them, or more):
 * the same next-fit as outboxRows, which never takes fewer rows for larger events, so an upper
 * bound of each size gives an upper bound of the rows. For callers sizing a transaction
 * (shared/inbox/ingest.ts packChunks).
 */
export function outboxRowCount(sizes: number[]): number {
  let rows = 0;
  let bytes = 0;
  for (const size of sizes) {
    if (rows && bytes + size <= ROW_MAX_BYTES) bytes += size;
    else {
      rows++;
      bytes = size;
    }
  }
  return rows;
}

/**
 * The outbox rows of a transaction's records: consecutive records, as many as fit ROW_MAX_BYTES
 * (one row for nearly every commit), each row keyed by its first record. Deterministic: the same
 * records give the same rows (relayCommitted deletes the keys outboxPuts wrote).
 */
export function outboxRows(records: OutboxRecord[]): OutboxRecord[][] {
  const rows: OutboxRecord[][] = [];
  let bytes = 0;
  for (const r of records) {
    const size = rowBytes(r.entry.detail);
    const last = rows[rows.length - 1];
    if (last && bytes + size <= ROW_MAX_BYTES) {
      last.push(r);
      bytes += size;
    } else {
      rows.push([r]);
      bytes = size;
    }
  }
  return rows;
}

/** Transaction items putting the outbox rows of `records` (outboxRows: one item per commit, rarely more). */
export function outboxPuts(e: TxEntities, records: OutboxRecord[]): TxItem[] {
  return outboxRows(records).map(([r, ...rest]) =>
    e.outboxEvent
      .put({
        shard: r!.shard,
        written_at: r!.written_at,
        event_id: r!.event_id,
        source: r!.entry.source,
        detail_type: r!.entry['detail-type'],
        detail: r!.entry.detail,
        ...(rest.length ? { more: rest.map((x) => ({ source: x.entry.source, detail_type: x.entry['detail-type'], detail: x.entry.detail })) } : {}),
        expires_at: Math.floor(r!.written_at / 1000) + OUTBOX_TTL_S,
      })
      .commit() as TxItem,
  );
}

type RowKey = Pick<OutboxRecord, 'shard' | 'written_at' | 'event_id'>;

/** Publish entries, then delete their rows (BatchWrite). A crash in between republishes them later: consumers dedupe. */
async function publishAndDelete(entries: BusEntry[], keys: RowKey[]): Promise<void> {
  await putEntries(entries);
  await deleteRows(keys);
}

async function deleteRows(keys: RowKey[]): Promise<void> {
  if (keys.length) await db().entities.outboxEvent.delete(keys.map((k) => ({ shard: k.shard, written_at: k.written_at, event_id: k.event_id }))).go({ concurrency: 2 });
}

/**
 * Deletes of published rows, coalesced (issue 23: one BatchWrite per commit was the largest cost of
 * a hot chat's ingest on DynamoDB Local). Outside Lambda, relayCommitted hands its rows' keys here
 * and returns at once; they are deleted together, 25 per BatchWrite, within DELETE_COALESCE_MS. A row whose
 * delete is pending or failed is only republished by the poller (consumers dedupe); the poller
 * flushes pending deletes before each pass, so it never republishes a row merely waiting here.
 * In Lambda the relay awaits its delete (a frozen sandbox would not run a timer).
 */
const pendingDeletes: RowKey[] = [];
/**
 * How long published rows wait to be deleted together (ms). 100 ms: at a hot chat's 50–80 commits
 * a second this is one BatchWrite of up to 25 rows instead of one per commit (bench:ingest --profile);
 * a row waiting here is at most this much older, far inside the poller's grace (OUTBOX_GRACE_MS).
 */
const DELETE_COALESCE_MS = 100;
let deleteTimer: NodeJS.Timeout | undefined;
let deleting: Promise<void> = Promise.resolve();

function scheduleDelete(keys: RowKey[]): void {
  pendingDeletes.push(...keys);
  deleteTimer ??= setTimeout(() => void flushOutboxDeletes(), DELETE_COALESCE_MS);
}

/** Delete every pending published row now (the poller's passes, the runtime's stop). Never throws: a row left is republished later. */
export async function flushOutboxDeletes(): Promise<void> {
  // publishes still in flight schedule their deletes when done: wait for them first
  if (inFlightPuts.size) await Promise.all([...inFlightPuts]);
  if (deleteTimer) clearTimeout(deleteTimer);
  deleteTimer = undefined;
  const keys = pendingDeletes.splice(0);
  deleting = deleting.then(async () => {
    if (!keys.length) return;
    await deleteRows(keys).catch((e: unknown) => log('warn', 'outbox.delete_failed', { error: String((e as Error)?.message ?? e), rows: keys.length }));
  });
  return deleting;
}

/**
 * After a commit: publish the transaction's events at once and delete their rows. Never throws:
 * the change is committed and its events are stored, so a failed publish only delays them until the
 * poller (locally) or the stream consumer (AWS) relays them. The request or record goes on.
 *
 * Test hook: `CHORUS_OUTBOX_CRASH_AFTER_COMMIT=1` kills the process (SIGKILL) here, between the
 * commit and the publish (tests/integration/outbox-kill.test.ts).
 */
export async function relayCommitted(records: OutboxRecord[]): Promise<void> {
  if (!records.length) return;
  if (process.env.CHORUS_OUTBOX_CRASH_AFTER_COMMIT === '1') {
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => undefined); // never reached in practice: the signal ends the process
  }
  if (config().OUTBOX_PUBLISH_ON_COMMIT !== '1') return;
  const failed = (e: unknown) => log('warn', 'outbox.relay_failed', { error: String((e as Error)?.message ?? e), events: records.map((r) => r.event_id) });
  try {
    const keys = outboxRows(records).map((row) => row[0]!);
    if (inLambda()) await publishAndDelete(records.map((r) => r.entry), keys);
    else {
      // Outside Lambda the caller does not wait for the publish (issue 17, bench:rules: every write
      // path — ingest, a rule's note — waited for the local queues' file writes). The local bus puts
      // the entries on their queues synchronously (LocalQueue.sendMany enqueues before its first
      // await), so they are delivered, and `idle()` sees them, as soon as this returns; the rows
      // are deleted once the put resolved (the events are durable). A failure leaves them to the
      // poller / stream consumer, as before. `flushOutboxDeletes` waits for puts in flight.
      const put = putEntries(records.map((r) => r.entry)).then(() => scheduleDelete(keys), failed);
      inFlightPuts.add(put);
      void put.finally(() => inFlightPuts.delete(put));
    }
  } catch (e) {
    failed(e);
  }
}

/** Publishes relayCommitted started and has not seen finish (outside Lambda). */
const inFlightPuts = new Set<Promise<void>>();

type StoredEvent = { source: string; detail_type: string; detail: unknown };
type OutboxRow = RowKey & StoredEvent & { more?: StoredEvent[] };

const storedEntry = (r: StoredEvent): BusEntry => ({ source: r.source, 'detail-type': r.detail_type as EventName, detail: r.detail as BusEntry['detail'] });
/** A row's events, in their commit's order (rows written before `more` existed hold one). */
const entriesOfRow = (r: OutboxRow): BusEntry[] => [storedEntry(r), ...(r.more ?? []).map(storedEntry)];

/**
 * Relay every outbox row written before `now - graceMs`, shard by shard, oldest first (Query per
 * shard, `sk < written_at`; never a Scan). The grace period leaves fresh rows to the process that
 * wrote them (its relayCommitted is normally done within milliseconds).
 * @param now epoch ms (injectable: tests move the clock instead of sleeping)
 * @returns how many events were published
 */
export async function drainOutbox(opts: { now?: number; graceMs?: number } = {}): Promise<number> {
  const cutoff = (opts.now ?? Date.now()) - (opts.graceMs ?? OUTBOX_GRACE_MS);
  await flushOutboxDeletes(); // rows already published by their writer are not relayed again
  let n = 0;
  for (let shard = 0; shard < OUTBOX_SHARDS; shard++) {
    // access pattern: outbox rows of a shard written before the cutoff, oldest first
    let cursor: string | null = null;
    do {
      const page: { data: OutboxRow[]; cursor: string | null } = await db().entities.outboxEvent.query.byShard({ shard }).lt({ written_at: cutoff }).go({ cursor, limit: 100 });
      if (page.data.length) {
        const entries = page.data.flatMap(entriesOfRow);
        await publishAndDelete(entries, page.data);
        n += entries.length;
      }
      cursor = page.cursor;
    } while (cursor);
  }
  return n;
}

/** Grace period of the poller, ms: rows younger than this belong to their writer's in-process relay. */
export const OUTBOX_GRACE_MS = 3_000;

/** The local poller (scripts/local/runtime.ts). */
export interface OutboxPoller {
  /** one pass now (tests pass `now` to move past the grace period without waiting) */
  drain(now?: number): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Start the local poller: a pass at once (what a killed process left), then every `intervalMs`.
 * Passes never overlap; a failed pass is logged and the next one retries.
 */
export function startOutboxPoller(opts: { intervalMs?: number; graceMs?: number; now?: () => number } = {}): OutboxPoller {
  const intervalMs = opts.intervalMs ?? 1_000;
  const clock = opts.now ?? Date.now;
  let running: Promise<number> = Promise.resolve(0);
  let stopped = false;
  const pass = (now = clock()) => {
    running = running.then(
      () => drainOutbox({ now, graceMs: opts.graceMs }),
      () => drainOutbox({ now, graceMs: opts.graceMs }),
    );
    return running;
  };
  const tick = () => {
    if (stopped) return;
    pass()
      .catch((e) => log('warn', 'outbox.poll_failed', { error: String((e as Error)?.message ?? e) }))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  let timer: NodeJS.Timeout | undefined;
  tick();
  return {
    drain: (now) => pass(now),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running.catch(() => undefined);
      await flushOutboxDeletes();
    },
  };
}

/**
 * The AWS relay (functions/consumers/outbox-relay.ts): publish outbox rows the table's stream
 * reported as INSERTed, unless they are gone already (the in-process relay published and deleted
 * them; a strongly consistent BatchGet tells), then delete them. A row published by both
 * (the relay's delete came after this read) reaches consumers twice and is handled once.
 * @returns how many events were published
 */
export async function relayStreamRows(keys: RowKey[]): Promise<number> {
  if (!keys.length) return 0;
  const got = await db()
    .entities.outboxEvent.get(keys.map((k) => ({ shard: k.shard, written_at: k.written_at, event_id: k.event_id })))
    .go({ consistent: true, concurrency: 2 });
  if (got.unprocessed?.length) throw new Error(`outbox: ${got.unprocessed.length} row(s) not read, retry`);
  const rows = (got.data as OutboxRow[]).sort((a, b) => a.written_at - b.written_at);
  const entries = rows.flatMap(entriesOfRow);
  if (rows.length) await publishAndDelete(entries, rows);
  return entries.length;
}
