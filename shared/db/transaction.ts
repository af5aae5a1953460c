import { AsyncResource } from 'node:async_hooks';
import { db } from './service.ts';
import type { PublishInput } from '../../events/publish.ts';
import { outboxPuts, outboxRecords, relayCommitted, type OutboxRecord } from '../../events/outbox.ts';

/**
 * One DynamoDB transaction through the Service (up to 100 items, all or nothing).
 * `TxEntities` is what the build callback receives; `TxItem` is one `.commit()` of an entity
 * operation inside it.
 */
export type TxEntities = Parameters<Parameters<ReturnType<typeof db>['transaction']['write']>[0]>[0];
export type TxItem = ReturnType<TxEntities['organization']['put']>['commit'] extends () => infer R ? R : never;

/**
 * Run one transaction. @returns false when DynamoDB cancelled it (a condition failed: a lost
 * optimistic-lock race, a duplicate); ElectroDB reports that as `canceled` instead of throwing.
 * Other errors are thrown.
 */
export async function commitTransaction(build: (e: TxEntities) => TxItem[]): Promise<boolean> {
  const res = await db().transaction.write(build as never).go();
  return !res.canceled;
}

/** What a transaction with events builds: its items and the domain events the change causes. */
export interface TxWithEvents {
  items: TxItem[];
  events: PublishInput[];
}

/**
 * Run one transaction holding a change AND the domain events it causes (the transactional outbox,
 * events/outbox.ts): the events are validated against the catalogue first (a ZodError is thrown and
 * nothing is written), stored in the same TransactWriteItems as one outbox row (events/outbox.ts
 * outboxRows: one item for all of them unless they pass 300 KB; keep `items.length + 1` ≤ 100,
 * or `+ events.length` where a commit's events may be that large), and, once committed, handed to the relay, which publishes
 * them at once. A process that dies after the commit leaves them to the poller / stream consumer.
 * `build` runs once per call (call again to retry a lost race).
 * @returns false when DynamoDB cancelled the transaction (as commitTransaction); nothing is published then
 */
export async function commitWithEvents(build: (e: TxEntities) => TxWithEvents): Promise<boolean> {
  return !(await transactWithEvents(build)).canceled;
}

/**
 * commitWithEvents, answering ElectroDB's transaction result: `canceled`, and in `data` one
 * `{ rejected, code }` per item in the order built (which condition failed: e.g. a duplicate).
 */
export async function transactWithEvents(build: (e: TxEntities) => TxWithEvents): Promise<{ canceled: boolean; data: unknown }> {
  let records: OutboxRecord[] = [];
  let empty = false;
  const res = await db()
    .transaction.write(((e: TxEntities) => {
      const { items, events } = build(e);
      records = outboxRecords(events);
      const all = [...items, ...outboxPuts(e, records)];
      empty = all.length === 0;
      return all;
    }) as never)
    .go()
    .catch((err: unknown) => {
      if (empty) return { canceled: false, data: [] }; // nothing to write: DynamoDB refuses an empty transaction
      throw err;
    });
  if (!res.canceled) await relayCommitted(records);
  return { canceled: res.canceled, data: res.data };
}

/**
 * Items another use case joins to a write's own transaction, so that they commit with the change
 * or not at all: e.g. a rule action's receipt (a conditional create: event id + rule id + action
 * index) and the chat's rule-rate counter (shared/rules/engine.ts), which makes the action happen
 * exactly once even when its write's answer is lost and the consumer retries. Called once per
 * attempt, inside the transaction's build; keep the whole transaction within 100 items.
 */
export interface TxJoin {
  (e: TxEntities): TxItem[];
  /** commit through this batch (JoinBatch): with other participants' joined writes, in one TransactWriteItems */
  batch?: JoinBatch;
  /** writes sharing a key (e.g. the chat: its row is checked and its rate item counted) never go in one transaction together */
  conflictKey?: string;
}

/**
 * A transaction was cancelled because a condition of one of its joined items failed (TxJoin):
 * nothing was written. `rejected`: the indexes of the refused items among the joined ones.
 */
export class JoinedItemRejected extends Error {
  constructor(readonly rejected: number[]) {
    super(`a joined transaction item was refused (index ${rejected.join(', ')})`);
    this.name = 'JoinedItemRejected';
  }
}

/** Attempts of a joined transaction cancelled only by TransactionConflict (another transaction on one of its items at that moment). */
const JOIN_CONFLICT_ATTEMPTS = 6;

/**
 * commitWithEvents with `join`'s items first in the same TransactWriteItems. A cancellation by
 * `TransactionConflict` alone (a concurrent transaction on one of the items, e.g. two events of a
 * chat counting against its rate item at once: nothing was written) is tried again, up to
 * JOIN_CONFLICT_ATTEMPTS times with a short random wait; only a failed condition is an answer.
 * @returns false when a condition of one of `build`'s own items failed (as commitWithEvents)
 * @throws JoinedItemRejected when a joined item's condition failed (which one, by index); an Error
 *   when conflicts outlast the attempts, or DynamoDB cancelled it for another reason (throttling,
 *   validation, none given): nothing was written, the caller's queue retries
 */
export async function commitJoined(join: TxJoin | undefined, build: (e: TxEntities) => TxWithEvents): Promise<boolean> {
  if (join?.batch) return join.batch.commit(join, build);
  for (let attempt = 1; ; attempt++) {
    let joined = 0;
    const res = await transactWithEvents((e) => {
      const extra = join ? join(e) : [];
      joined = extra.length;
      const own = build(e);
      return { items: [...extra, ...own.items], events: own.events };
    });
    if (!res.canceled) return true;
    const reasons = (Array.isArray(res.data) ? res.data : []) as Array<{ rejected?: boolean; code?: string; message?: string } | undefined>;
    // only a failed condition is an answer; a cancellation for any other reason (throttling, a
    // validation error) or none given wrote nothing and is thrown for the caller's retry — taken as
    // an answer it became a permanent 'failed' action (e.g. a note's "chat not found")
    const other = reasons.find((r) => !!r?.rejected && r.code !== 'ConditionalCheckFailed' && r.code !== 'TransactionConflict');
    if (other || !reasons.some((r) => r?.rejected)) throw new Error(`transaction cancelled: ${other ? `${other.code}${other.message ? ` (${other.message})` : ''}` : 'no reason given'}`);
    const failed = (r: { rejected?: boolean; code?: string } | undefined) => r?.code === 'ConditionalCheckFailed';
    const rejected = reasons.slice(0, joined).flatMap((r, i) => (failed(r) ? [i] : []));
    if (rejected.length) throw new JoinedItemRejected(rejected);
    if (reasons.some(failed)) return false;
    if (attempt >= JOIN_CONFLICT_ATTEMPTS) throw new Error(`transaction conflict: still cancelled after ${attempt} attempts`);
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
  }
}

/** Writes in one batched transaction at most (each a note's 5 items or so: within DynamoDB's 100 items; a refused one falls back). */
const JOIN_BATCH_MAX_WRITES = 10;
/** How long the first write of a round waits for the other participants at most, ms. */
const JOIN_BATCH_WAIT_MS = 25;

interface Pending {
  join: TxJoin;
  build: (e: TxEntities) => TxWithEvents;
  /** join + build with their outbox records, run in the participant's own async context (its events' causation: events/causation.ts) */
  built: (e: TxEntities) => { items: TxItem[]; records: OutboxRecord[] };
  resolve: (ok: boolean) => void;
  reject: (e: unknown) => void;
}

/**
 * Joined writes of several concurrent participants (e.g. the rule actions of one SQS batch's
 * events, shared/rules/engine.ts) committed as ONE TransactWriteItems: all of them or none, each
 * with its own items, joined items and outbox events, so every participant's all-or-nothing (and
 * a rule action's exactly-once receipt) holds as in commitJoined. A round is committed when every
 * participant that `enter`ed is waiting on a commit or has `leave`n, or JOIN_BATCH_WAIT_MS after
 * its first write. Writes with the same `conflictKey` go in later rounds, after the earlier ones
 * (one item may appear once in a transaction). A write alone, and every write of a transaction
 * DynamoDB cancelled or refused, go through commitJoined on their own, which gives each
 * participant its own answer (a refused joined item: JoinedItemRejected; conflicts: retried) — a
 * cancelled or refused transaction wrote nothing. A lost answer (an error after a commit) is
 * handled the same way: the joined receipt then refuses the repeat.
 * `joinBatchTotals` counts, for this process: transactions of several writes, the writes in them,
 * and writes committed on their own (benchmarks read it).
 */
export const joinBatchTotals = { together: 0, writesTogether: 0, alone: 0 };

export class JoinBatch {
  private active = 0;
  private inFlight = 0;
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** A participant starts (it may call commitJoined with this batch). */
  enter(): void {
    this.active++;
  }

  /** A participant is done (it will not commit through this batch any more). */
  leave(): void {
    this.active--;
    this.maybeFlush();
  }

  /** commitJoined's answer for `join` + `build`, committed with the round's other writes. */
  commit(join: TxJoin, build: (e: TxEntities) => TxWithEvents): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      const settle = () => {
        this.inFlight--;
        this.maybeFlush();
      };
      // the round is committed from another participant's context: each one's items and events are
      // built in its own (the loop guard's causation of its events, events/publish.ts entryOf)
      const built = AsyncResource.bind((e: TxEntities) => {
        const own = build(e);
        return { items: [...join(e), ...own.items], records: outboxRecords(own.events) };
      });
      this.queue.push({ join, build, built, resolve: (ok) => (settle(), resolve(ok)), reject: (e) => (settle(), reject(e)) });
      this.timer ??= setTimeout(() => this.flush(), JOIN_BATCH_WAIT_MS);
      this.maybeFlush();
    });
  }

  /** Nobody else can join now: every active participant waits on a commit (queued or in flight). */
  private maybeFlush(): void {
    if (this.queue.length && this.queue.length + this.inFlight >= this.active) this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const all = this.queue.splice(0);
    if (!all.length) return;
    this.inFlight += all.length;
    // rounds: a conflict key at most once in each; a later round waits for the earlier ones (same items)
    const rounds: Pending[][] = [];
    for (const p of all) {
      const k = p.join.conflictKey;
      const r = rounds.find((x) => x.length < JOIN_BATCH_MAX_WRITES && (!k || !x.some((q) => q.join.conflictKey === k)));
      if (r) r.push(p);
      else rounds.push([p]);
    }
    void (async () => {
      for (const round of rounds) await this.commitRound(round);
    })();
  }

  private async commitRound(round: Pending[]): Promise<void> {
    const alone = (p: Pending) => {
      joinBatchTotals.alone++;
      return commitJoined(Object.assign((e: TxEntities) => p.join(e), { conflictKey: p.join.conflictKey }), p.build).then(p.resolve, p.reject);
    };
    if (round.length === 1) return alone(round[0]!);
    let committed = false;
    let records: OutboxRecord[] = [];
    try {
      const res = await db()
        .transaction.write(((e: TxEntities) => {
          const built = round.map((p) => p.built(e));
          records = built.flatMap((b) => b.records);
          return [...built.flatMap((b) => b.items), ...outboxPuts(e, records)];
        }) as never)
        .go();
      committed = !res.canceled;
    } catch {
      committed = false;
    }
    if (committed) await relayCommitted(records);
    if (committed) {
      joinBatchTotals.together++;
      joinBatchTotals.writesTogether += round.length;
      for (const p of round) p.resolve(true);
      return;
    }
    // cancelled or refused as a whole (nothing written), or the answer was lost: each on its own, for its own answer
    await Promise.all(round.map(alone));
  }
}
