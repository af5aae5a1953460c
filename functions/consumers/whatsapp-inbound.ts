import { sqsBatchHandler } from '../lib/sqs.ts';
import { ingestWebhookBatch } from '../../shared/inbox/ingest.ts';
import { log } from '../../shared/log.ts';
import { METRIC, recordMetric } from '../../shared/metrics.ts';

/**
 * whatsapp-inbound queue consumer: store what the acknowledged webhook bodies carry, a whole SQS
 * batch at once (see ingestWebhookBatch). Records are `{ raw_body, received_at (epoch ms) }`.
 * Infrastructure errors fail only their record (retried, then dead-lettered); unusable content
 * is kept as a rejection and never retried.
 */
export const handler = sqsBatchHandler('whatsapp-inbound', async (records) => {
  const bodies = records.map((r) => {
    try {
      return (JSON.parse(r.body) as { raw_body: string }).raw_body;
    } catch {
      return r.body; // not our envelope: ingest keeps it as an unusable body
    }
  });
  const results = await ingestWebhookBatch(bodies);
  recordMetric(METRIC.messagesStored, results.reduce((n, r) => n + (r instanceof Error ? 0 : r.stored), 0));
  return results.map((r): PromiseSettledResult<unknown> => {
    if (r instanceof Error) return { status: 'rejected', reason: r };
    log('debug', 'webhook.ingested', { ...r });
    return { status: 'fulfilled', value: r };
  });
});
