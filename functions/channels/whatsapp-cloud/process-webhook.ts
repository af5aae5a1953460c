import { sqsHandler } from '../../lib/sqs.ts';
import { ingestWebhookBody, keepRejection } from '../../../shared/inbox/ingest.ts';
import { log } from '../../../shared/log.ts';

/**
 * whatsapp-inbound queue consumer: store what each acknowledged webhook body carries.
 * Records are `{ raw_body, received_at (epoch ms) }`. Infrastructure errors throw (the record is
 * retried, then dead-lettered); unusable content is kept as a rejection, never retried forever.
 */
export const handler = sqsHandler('whatsapp-inbound', async (record) => {
  let cmd: { raw_body: string; received_at: number };
  try {
    cmd = JSON.parse(record.body);
  } catch {
    await keepRejection(undefined, 'queue record is not JSON', record.body);
    return;
  }
  const summary = await ingestWebhookBody(cmd.raw_body);
  log('debug', 'webhook.ingested', { ...summary, lag_ms: Date.now() - cmd.received_at });
});
