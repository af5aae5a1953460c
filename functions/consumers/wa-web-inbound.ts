import type { SQSRecord } from 'aws-lambda';
import { sqsBatchHandler, receiveCount } from '../lib/sqs.ts';
import { processWaWebInbound, RetryLater } from '../../shared/whatsapp/web/inbound-queue.ts';
import { COMMAND_QUEUES } from '../../events/catalog.ts';
import { log } from '../../shared/log.ts';

const MAX_RECEIVES = COMMAND_QUEUES.find((q) => q.name === 'wa-web-inbound')!.maxReceiveCount;

/**
 * wa-web-inbound queue consumer: stores what a WhatsApp Web session received (one record = one
 * socket event's normalized §C events, put there by the session worker) and asks the worker for
 * the files and group metadata that need its socket (shared/whatsapp/web/inbound-queue.ts).
 * A failed record is retried by the queue and dead-lettered after maxReceiveCount; storing is
 * idempotent, so a redelivery stores nothing twice. A record that is not one the worker writes
 * is logged and dropped (retrying cannot make it readable).
 */
async function processRecord(record: SQSRecord): Promise<void> {
  try {
    const r = await processWaWebInbound(record.body, receiveCount(record), MAX_RECEIVES);
    log('debug', 'wa_web.inbound_stored', { ...r });
  } catch (e) {
    if (e instanceof SyntaxError || (e instanceof Error && e.message.startsWith('not a wa-web-inbound record'))) {
      log('error', 'wa_web.inbound_unreadable', { messageId: record.messageId, error: e.message });
      return;
    }
    if (e instanceof RetryLater) log('info', 'wa_web.inbound_retry_later', { messageId: record.messageId, reason: e.message });
    throw e;
  }
}

/**
 * Records one after another, in the order the queue hands them over. The queue is FIFO by number
 * and chat: once a record of a chat fails, the chat's later records of the batch are not stored
 * but reported failed too, so they come back after it, in order (SQS FIFO partial batch rule).
 */
export const handler = sqsBatchHandler('wa-web-inbound', async (records) => {
  const results: PromiseSettledResult<unknown>[] = [];
  const failedGroups = new Set<string>();
  for (const r of records) {
    const group = r.attributes?.MessageGroupId;
    if (group && failedGroups.has(group)) {
      results.push({ status: 'rejected', reason: new Error(`an earlier record of ${group} failed: kept for after it`) });
      continue;
    }
    try {
      results.push({ status: 'fulfilled', value: await processRecord(r) });
    } catch (reason) {
      if (group) failedGroups.add(group);
      results.push({ status: 'rejected', reason });
    }
  }
  return results;
});
