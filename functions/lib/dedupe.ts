import type { SQSRecord } from 'aws-lambda';
import { db } from '../../shared/db/service.ts';
import { bodyOf } from './records.ts';

/**
 * Idempotency by event id for the bus's consumers (architecture.md §5): the outbox may relay an
 * event twice (a process died after publishing but before deleting its row; in AWS the in-process
 * relay and the stream consumer both saw it) and SQS delivers at least once, so each consumer keeps
 * a receipt per `detail.metadata.id` it handled (shared/outbox/consumer-receipt.entity.ts) and
 * skips an event it has a receipt for. Events published with deterministic ids (e.g.
 * `message.received:<org>:<wamid>`) are deduped across re-emissions too.
 *
 * The receipt is written after the handler succeeded (a failed or killed handler leaves none, so
 * the retry runs it again). Two copies of one event delivered at the same instant may both run
 * (no claim is held while handling: a claim left by a killed consumer would block its retries); the
 * consumers' writes are idempotent on their own (upserts, version-checked writes), so that rare race
 * costs a repeated push at most.
 */

/** Receipts live 7 days (epoch s arithmetic below). */
const RECEIPT_TTL_S = 7 * 24 * 3600;

/** The event id of an EventBridge-shaped SQS body (`detail.metadata.id`); undefined for command bodies. */
export function eventIdOf(record: SQSRecord): string | undefined {
  const body = bodyOf(record) as { 'detail-type'?: unknown; detail?: { metadata?: { id?: unknown } } } | null;
  if (!body || typeof body !== 'object') return undefined;
  const id = body.detail?.metadata?.id;
  return typeof body['detail-type'] === 'string' && typeof id === 'string' && id ? id : undefined;
}

/** Which of `eventIds` has `consumer` handled already? One BatchGet (strongly consistent) for a whole batch. */
export async function handledAmong(consumer: string, eventIds: string[]): Promise<Set<string>> {
  const ids = [...new Set(eventIds)];
  if (!ids.length) return new Set();
  const got = await db()
    .entities.consumerReceipt.get(ids.map((event_id) => ({ consumer, event_id })))
    .go({ consistent: true, attributes: ['event_id'] });
  if (got.unprocessed?.length) throw new Error(`${consumer}: ${got.unprocessed.length} receipt(s) not read, retry`);
  return new Set((got.data as Array<{ event_id: string }>).map((r) => r.event_id));
}

/** Record several handled events of one consumer (one BatchWrite). */
export async function markAllHandled(consumer: string, eventIds: string[], now = Date.now()): Promise<void> {
  const ids = [...new Set(eventIds)];
  if (!ids.length) return;
  const res = await db()
    .entities.consumerReceipt.put(ids.map((event_id) => ({ consumer, event_id, handled_at: now, expires_at: Math.floor(now / 1000) + RECEIPT_TTL_S })))
    .go();
  if (res.unprocessed?.length) throw new Error(`${consumer}: ${res.unprocessed.length} receipt(s) not written, retry`);
}

/** Most event ids kept per consumer by the in-process receipts. */
const MEMORY_RECEIPTS_MAX = 50_000;
const memory = new Map<string, Set<string>>();

/**
 * In-process receipts, for a consumer whose repeats are harmless (realtime-fanout: clients upsert
 * by id, so a second push of one event changes nothing on screen). They skip what this process
 * handled (an outbox row relayed again by the poller, an SQS redelivery to the same process), at
 * no table cost: issue 23 measured the table receipts (a BatchGet and a BatchWrite per batch) as a
 * third of the fan-out's DynamoDB calls. A repeat reaching another process is pushed again.
 * Oldest ids are forgotten past MEMORY_RECEIPTS_MAX.
 */
export const memoryReceipts = {
  /** Forget these events' in-process receipts, as a restart of the process would (tests). */
  forget(consumer: string, eventIds: string[]): void {
    for (const id of eventIds) memory.get(consumer)?.delete(id);
  },
  handledAmong(consumer: string, eventIds: string[]): Set<string> {
    const seen = memory.get(consumer);
    return new Set(seen ? eventIds.filter((id) => seen.has(id)) : []);
  },
  markAllHandled(consumer: string, eventIds: string[]): void {
    let seen = memory.get(consumer);
    if (!seen) memory.set(consumer, (seen = new Set()));
    for (const id of eventIds) {
      seen.delete(id);
      seen.add(id);
    }
    if (seen.size > MEMORY_RECEIPTS_MAX) {
      let extra = seen.size - MEMORY_RECEIPTS_MAX;
      for (const id of seen) {
        if (extra-- <= 0) break;
        seen.delete(id);
      }
    }
  },
};

type Listener = (consumer: string, eventId: string) => void;
const listeners = new Set<Listener>();

/**
 * Observe every event a consumer handled (not the skipped duplicates), in this process: what
 * tests count exactly-once delivery with (tests/integration/outbox-kill.test.ts).
 * @returns a function that removes the listener
 */
export function onEventHandled(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tell the listeners (called by functions/lib/sqs.ts once the receipt is written). */
export function notifyHandled(consumer: string, eventId: string): void {
  for (const l of listeners) l(consumer, eventId);
}
