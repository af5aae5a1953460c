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
 * nothing is written), stored as outbox rows in the same TransactWriteItems (one item each: keep
 * `items.length + events.length` ≤ 100), and, once committed, handed to the relay, which publishes
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
export type TxJoin = (e: TxEntities) => TxItem[];

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
 * @returns false when DynamoDB cancelled it for one of `build`'s own items (as commitWithEvents)
 * @throws JoinedItemRejected when a joined item's condition failed (which one, by index); an Error
 *   when conflicts outlast the attempts (the caller's queue retries)
 */
export async function commitJoined(join: TxJoin | undefined, build: (e: TxEntities) => TxWithEvents): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    let joined = 0;
    const res = await transactWithEvents((e) => {
      const extra = join ? join(e) : [];
      joined = extra.length;
      const own = build(e);
      return { items: [...extra, ...own.items], events: own.events };
    });
    if (!res.canceled) return true;
    const reasons = (Array.isArray(res.data) ? res.data : []) as Array<{ rejected?: boolean; code?: string } | undefined>;
    const failed = (r: { rejected?: boolean; code?: string } | undefined) => !!r?.rejected && r.code !== 'TransactionConflict';
    const rejected = reasons.slice(0, joined).flatMap((r, i) => (failed(r) ? [i] : []));
    if (rejected.length) throw new JoinedItemRejected(rejected);
    if (reasons.some(failed)) return false;
    if (!reasons.some((r) => r?.code === 'TransactionConflict')) return false;
    if (attempt >= JOIN_CONFLICT_ATTEMPTS) throw new Error(`transaction conflict: still cancelled after ${attempt} attempts`);
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
  }
}
