import type { SQSEvent, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { log } from '../../shared/log.ts';

/**
 * SQS batch consumer with partial failures (Powertools pattern, `reportBatchItemFailures`):
 * each record is processed on its own, all records of a batch concurrently (the use cases are
 * idempotent and guard shared rows with optimistic concurrency, so order inside a batch does not
 * matter); failed ones are returned so only they are retried and, after `maxReceiveCount`, land
 * in the DLQ.
 */
export function sqsHandler(name: string, fn: (record: SQSRecord) => Promise<void>) {
  return sqsBatchHandler(name, async (records) => Promise.allSettled(records.map((r) => fn(r))));
}

/**
 * Like sqsHandler, for consumers that want the whole batch at once (e.g. to share one lookup).
 * `fn` returns one settled result per record, in order.
 */
export function sqsBatchHandler(name: string, fn: (records: SQSRecord[]) => Promise<PromiseSettledResult<unknown>[]>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await fn(event.Records);
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    results.forEach((r, i) => {
      if (r.status === 'rejected') {
        const record = event.Records[i];
        log('error', `${name}.record_failed`, { messageId: record.messageId, error: String((r.reason as Error)?.message ?? r.reason) });
        failures.push({ itemIdentifier: record.messageId });
      }
    });
    return { batchItemFailures: failures };
  };
}

/** 1-based delivery attempt of a record. */
export const receiveCount = (r: SQSRecord): number => Number(r.attributes?.ApproximateReceiveCount ?? '1');
