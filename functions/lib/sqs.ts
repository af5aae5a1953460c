import type { SQSEvent, SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { log } from '../../shared/log.ts';

/**
 * SQS batch consumer with partial failures (Powertools pattern, `reportBatchItemFailures`):
 * each record is processed on its own; failed ones are returned so only they are retried and,
 * after `maxReceiveCount`, land in the DLQ.
 */
export function sqsHandler(name: string, fn: (record: SQSRecord) => Promise<void>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      try {
        await fn(record);
      } catch (e) {
        log('error', `${name}.record_failed`, { messageId: record.messageId, error: String((e as Error)?.message ?? e) });
        failures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures: failures };
  };
}

/** 1-based delivery attempt of a record. */
export const receiveCount = (r: SQSRecord): number => Number(r.attributes?.ApproximateReceiveCount ?? '1');
