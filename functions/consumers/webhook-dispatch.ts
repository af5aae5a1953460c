import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { dispatchBusEvent } from '../../shared/webhooks/delivery.ts';

/** webhook-dispatch consumer: one bus event -> delivery rows of the org's subscribed endpoints (shared/webhooks/delivery.ts). */
export const handler = sqsHandler('webhook-dispatch', async (record) => {
  const ev = parseEventRecord(record, 'webhook-dispatch');
  await dispatchBusEvent({ name: ev['detail-type'], properties: ev.detail.properties as Record<string, unknown>, metadata: ev.detail.metadata });
});
