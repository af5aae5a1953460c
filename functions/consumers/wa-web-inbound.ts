import type { SQSRecord } from 'aws-lambda';
import { sqsBatchHandler } from '../lib/sqs.ts';
import { fromQueueBody, processWaWebInbound } from '../../shared/whatsapp/web/inbound-queue.ts';
import { log } from '../../shared/log.ts';
import type { InboundEvent } from '../../shared/whatsapp/web/types.ts';
import type { WaWebPhone } from '../../shared/whatsapp/web/ingest-web.ts';

/**
 * wa-web-inbound queue consumer: stores what a WhatsApp Web session received (one record = one
 * chat's normalized §C events of one socket event, put there by the session worker) and asks the
 * worker for the files and group metadata that need its socket (shared/whatsapp/web/inbound-queue.ts).
 *
 * Consecutive records of one number are stored together (one ingest call: a hot group's backlog
 * costs about what one record does). The queue is FIFO by number and chat: once records fail,
 * their chats' later records of the batch are not stored but reported failed too, so they come
 * back after them, in order (the SQS FIFO partial batch rule). A failed record is retried and
 * dead-lettered after maxReceiveCount; storing is idempotent, so a redelivery stores nothing twice.
 * A record that is not one the worker writes is logged and dropped (retrying cannot make it readable).
 */
type Parsed = { record: SQSRecord; body: { phone: WaWebPhone; events: InboundEvent[] } | null; group: string | undefined };

export const handler = sqsBatchHandler('wa-web-inbound', async (records) => {
  const results: PromiseSettledResult<unknown>[] = records.map(() => ({ status: 'fulfilled', value: undefined }));
  const parsed: Parsed[] = records.map((record) => {
    try {
      return { record, body: fromQueueBody(record.body), group: record.attributes?.MessageGroupId };
    } catch (e) {
      log('error', 'wa_web.inbound_unreadable', { messageId: record.messageId, error: (e as Error).message });
      return { record, body: null, group: record.attributes?.MessageGroupId };
    }
  });
  const failedGroups = new Set<string>();
  let i = 0;
  while (i < parsed.length) {
    const first = parsed[i]!;
    if (!first.body) {
      i++;
      continue;
    }
    // a run: consecutive readable records of the same number, skipping those held behind a failure
    const run: number[] = [];
    let j = i;
    for (; j < parsed.length; j++) {
      const p = parsed[j]!;
      if (!p.body) break;
      if (p.body.phone.phone_id !== first.body.phone.phone_id) break;
      if (p.group && failedGroups.has(p.group)) {
        results[j] = { status: 'rejected', reason: new Error(`an earlier record of ${p.group} failed: kept for after it`) };
        continue;
      }
      run.push(j);
    }
    if (run.length) {
      try {
        const r = await processWaWebInbound(run.map((k) => parsed[k]!.body!));
        log('debug', 'wa_web.inbound_stored', { ...r, records: run.length });
      } catch (reason) {
        for (const k of run) {
          results[k] = { status: 'rejected', reason };
          const g = parsed[k]!.group;
          if (g) failedGroups.add(g);
        }
      }
    }
    i = j;
  }
  return results;
});
