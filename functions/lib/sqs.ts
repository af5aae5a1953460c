import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { log, withLogContext } from '../../shared/log.ts';
import { errorInWords } from '../../shared/ops/dead-letter.rules.ts';
import { inLambda, METRIC, recordMetric } from '../../shared/metrics.ts';
import { observability } from './powertools.ts';
import { bodyOf } from './records.ts';
import { eventIdOf, handledAmong, markAllHandled, memoryReceipts, notifyHandled } from './dedupe.ts';

/**
 * What a per-record consumer returns: nothing (done), or NOOP when it found nothing to do for the
 * record (e.g. a reply in a chat no broadcast went to). A NOOP needs no table receipt: running it
 * again changes nothing, so it is remembered in-process only (dedupe.ts memoryReceipts).
 */
export const NOOP = Symbol('noop');

/**
 * Options of a consumer.
 * - `relevant(record)`: a cheap test (an in-memory check or a per-process cached org read, e.g.
 *   "does this org have any enabled webhook endpoint?") run before anything else. A record it
 *   rejects is answered as done with no table read or write at all (in-process receipt only), so a
 *   consumer that has nothing to do for most events (web push without devices, webhooks without
 *   endpoints, the AI agent switched off) costs no DynamoDB call per event. Issue 23 measured
 *   ~18 DynamoDB calls per inbound message across the subscribers, two thirds of them such
 *   receipts and lookups, which made DynamoDB Local (one JVM) the ingest bottleneck.
 * - `receipts`: 'table' (default: consumer receipts in DynamoDB) or 'memory' (in-process, for
 *   consumers whose repeats are harmless; dedupe.ts memoryReceipts).
 * - `memoryReceipt(record)`: with table receipts, true for a record whose repeat is harmless (the
 *   rules engine: an org whose rules arm no timers, whose actions carry their own exactly-once
 *   receipts and whose log rows have ids made from the event): it is neither read from nor written
 *   to the table, only remembered in-process. Run after `relevant`, on the records it kept.
 */
export interface ConsumerOptions {
  relevant?: (record: SQSRecord) => boolean | Promise<boolean>;
  receipts?: 'table' | 'memory';
  memoryReceipt?: (record: SQSRecord) => boolean | Promise<boolean>;
}

/**
 * SQS batch consumer with partial failures, through Powertools' Batch processor
 * (`processPartialResponse`, the function's event source mapping has `reportBatchItemFailures`):
 * each record is processed on its own, all records of a batch concurrently (the use cases are
 * idempotent and guard shared rows with optimistic concurrency, so order inside a batch does not
 * matter); failed ones are returned in `batchItemFailures` so only they are retried and, after
 * `maxReceiveCount`, land in the DLQ. A batch whose records all fail is answered the same way
 * (every record listed), not thrown.
 *
 * Records that are bus events are handled once per consumer by event id (`detail.metadata.id`,
 * functions/lib/dedupe.ts): the batch's receipts are read with one BatchGet, one already handled is
 * answered as done without running `fn`, and the receipts of the records `fn` handled are written
 * with one BatchWrite after it (a receipt not written fails its record: retried, and handled again
 * idempotently). `fn` may return NOOP (see there); `opts.relevant` skips records up front.
 *
 * Every log line of a record carries `queue`, `message_id` and, for EventBridge events,
 * `event_id` (and the Lambda request id in AWS). Metrics: QueueAge (oldest record of the batch,
 * ms) and ConsumerErrors (failed records), both by `queue`. In Lambda the handler also gets the
 * Powertools Logger context, metric flushing and an X-Ray segment (middy middlewares).
 */
export function sqsHandler(name: string, fn: (record: SQSRecord) => Promise<void | typeof NOOP>, opts: ConsumerOptions = {}) {
  return sqsBatchHandler(name, (records) => Promise.allSettled(records.map((record) => withLogContext(recordContext(record), () => fn(record)))), opts);
}

/**
 * Like sqsHandler, for consumers that want the whole batch at once (e.g. to share one lookup).
 * `fn` returns one settled result per record, in order; the rejected ones are reported as
 * batch item failures through the same Batch processor. A fulfilled NOOP value gets an in-process
 * receipt only. Options: ConsumerOptions.
 */
export function sqsBatchHandler(name: string, fn: (records: SQSRecord[]) => Promise<PromiseSettledResult<unknown>[]>, opts: ConsumerOptions = {}) {
  // 'memory': in-process receipts for consumers whose repeats are harmless (dedupe.ts memoryReceipts)
  const inMemory = opts.receipts === 'memory';
  const readReceipts = async (ids: string[]) => (inMemory ? memoryReceipts.handledAmong(name, ids) : handledAmong(name, ids));
  const writeReceipts = async (ids: string[]) => (inMemory ? memoryReceipts.markAllHandled(name, ids) : markAllHandled(name, ids));
  return consumer(name, async (event) => {
    const ids = event.Records.map(eventIdOf);
    // records this consumer has nothing to do with: done, with an in-process receipt (no table call)
    const skipped = new Set<number>();
    if (opts.relevant) {
      const verdicts = await Promise.all(event.Records.map(async (r) => { try { return await opts.relevant!(r); } catch { return true; } }));
      verdicts.forEach((v, i) => !v && skipped.add(i));
    }
    // records whose repeat is harmless: in-process receipts only (no table read or write)
    const inProcess = new Set<number>();
    if (opts.memoryReceipt && !inMemory) {
      const verdicts = await Promise.all(event.Records.map(async (r, i) => { if (skipped.has(i)) return false; try { return await opts.memoryReceipt!(r); } catch { return false; } }));
      verdicts.forEach((v, i) => v && inProcess.add(i));
    }
    const askIds = ids.filter((id, i): id is string => !!id && !skipped.has(i));
    const tableAskIds = ids.filter((id, i): id is string => !!id && !skipped.has(i) && !inProcess.has(i));
    // events handled already are answered as done without reaching fn: one BatchGet of receipts per
    // batch (none with in-process receipts), plus the in-process ones of skipped/NOOP records
    let seenIds: Set<string>;
    try {
      seenIds = tableAskIds.length ? await readReceipts(tableAskIds) : new Set();
    } catch (e) {
      log('warn', `${name}.receipts_unread`, { error: String((e as Error)?.message ?? e) });
      seenIds = new Set(); // handle them all: consumers are idempotent, a repeat beats a stall
    }
    for (const id of memoryReceipts.handledAmong(name, askIds)) seenIds.add(id);
    const isSeen = (i: number) => !!ids[i] && seenIds.has(ids[i]!);
    const freshIdx = event.Records.flatMap((_, i) => (!skipped.has(i) && !isSeen(i) ? [i] : []));
    const handled = freshIdx.length ? await fn(freshIdx.map((i) => event.Records[i]!)) : [];
    const results: Array<PromiseSettledResult<unknown> | undefined> = event.Records.map(() => undefined);
    freshIdx.forEach((i, k) => (results[i] = handled[k]));
    const tableIds: string[] = [];
    const memoryIds: string[] = [];
    event.Records.forEach((_, i) => {
      const id = ids[i];
      if (!id || isSeen(i)) return;
      if (skipped.has(i)) memoryIds.push(id);
      else if (results[i]?.status === 'fulfilled') ((results[i] as PromiseFulfilledResult<unknown>).value === NOOP || inProcess.has(i) ? memoryIds : tableIds).push(id);
    });
    let receiptError: unknown;
    await writeReceipts(tableIds).then(
      () => tableIds.forEach((id) => notifyHandled(name, id)),
      (e) => (receiptError = e),
    );
    const fresh = memoryIds.filter((id) => !memoryReceipts.handledAmong(name, [id]).size);
    memoryReceipts.markAllHandled(name, fresh);
    fresh.forEach((id) => notifyHandled(name, id));
    const tableIdSet = new Set(tableIds);
    const final = event.Records.map((_, i): PromiseSettledResult<unknown> | undefined => {
      if (isSeen(i)) return { status: 'fulfilled', value: 'duplicate' };
      if (skipped.has(i)) return { status: 'fulfilled', value: 'irrelevant' };
      const res = results[i];
      // a receipt not written: the record is retried (and handled again, idempotently)
      if (receiptError && res?.status === 'fulfilled' && ids[i] && tableIdSet.has(ids[i]!)) return { status: 'rejected', reason: receiptError };
      return res;
    });
    const byId = new Map(event.Records.map((r, i) => [r.messageId, final[i]]));
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(
      event,
      (record: SQSRecord) =>
        withLogContext(recordContext(record), async () => {
          const r = byId.get(record.messageId);
          if (r?.status === 'rejected') {
            logRecordFailure(name, record.messageId, r.reason);
            throw r.reason instanceof Error ? r.reason : new Error(String(r.reason));
          }
          return r?.value;
        }),
      processor,
      { processInParallel: true, throwOnFullBatchFailure: false },
    );
  });
}

/** The wrapper both kinds share: correlation context, failure logs, metrics, Lambda middlewares. */
type SqsLambda = (event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>;
function consumer(name: string, run: (event: SQSEvent) => Promise<SQSBatchResponse>): SqsLambda {
  const inner = async (event: SQSEvent): Promise<SQSBatchResponse> =>
    withLogContext({ queue: name }, async () => {
      const sent = event.Records.map((r) => Number(r.attributes?.SentTimestamp)).filter((t) => Number.isFinite(t) && t > 0);
      if (sent.length) recordMetric(METRIC.queueAge, Date.now() - Math.min(...sent), { unit: 'Milliseconds', dimensions: { queue: name } });
      const response = await run(event);
      const failed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
      if (failed.size) recordMetric(METRIC.consumerErrors, failed.size, { dimensions: { queue: name } });
      return response;
    });
  if (!inLambda()) return inner;
  // middy fills in a missing context itself
  return middy<SQSEvent, SQSBatchResponse, Error, Context>(inner).use(observability()) as SqsLambda;
}

/** Correlation fields of a record: its SQS message id and, for an EventBridge event, its event id and org. */
function recordContext(record: SQSRecord): Record<string, unknown> {
  const fields: Record<string, unknown> = { message_id: record.messageId };
  // parsed once per record (records.ts bodyOf); not JSON: the message id is enough
  const body = bodyOf(record) as { id?: unknown; 'detail-type'?: unknown; detail?: { properties?: { org_id?: unknown } } } | null;
  if (body && typeof body === 'object' && typeof body['detail-type'] === 'string') {
    fields.event_id = body.id;
    fields.event_type = body['detail-type'];
    fields.org_id = body.detail?.properties?.org_id;
  } else if (body && typeof body === 'object' && typeof (body as { org_id?: unknown }).org_id === 'string') fields.org_id = (body as { org_id: string }).org_id;
  return fields;
}

/**
 * Where failed records' errors go besides the log: the local queue keeps each one as the dead
 * letter's reason (SQS keeps none: in AWS the log line is the record). `undefined` = log only.
 */
let failureSink: ((messageId: string, error: string) => void) | undefined;
export function setRecordFailureSink(sink: typeof failureSink): void {
  failureSink = sink;
}

/** Logs a failed record (inside its log context, so with its message id; the Batch processor only keeps the error), in words. */
function logRecordFailure(name: string, messageId: string, error: unknown): void {
  const words = errorInWords(String((error as Error)?.message ?? error));
  log('error', `${name}.record_failed`, { error: words });
  failureSink?.(messageId, words);
}

/** 1-based delivery attempt of a record. */
export const receiveCount = (r: SQSRecord): number => Number(r.attributes?.ApproximateReceiveCount ?? '1');
