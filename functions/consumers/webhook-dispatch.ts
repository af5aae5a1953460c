import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { dispatchBusEvent, hasSubscribers } from '../../shared/webhooks/delivery.ts';

/**
 * webhook-dispatch consumer: one bus event -> delivery rows of the org's subscribed endpoints
 * (shared/webhooks/delivery.ts). Events no enabled endpoint of the org subscribes to are skipped
 * before any table call (`hasSubscribers`, a per-process cache of the org's subscribed types).
 */
export const handler = sqsHandler(
  'webhook-dispatch',
  async (record) => {
    const ev = parseEventRecord(record, 'webhook-dispatch');
    await dispatchBusEvent({ name: ev['detail-type'], properties: ev.detail.properties as Record<string, unknown>, metadata: ev.detail.metadata });
  },
  {
    relevant: (record) => {
      const ev = parseEventRecord(record, 'webhook-dispatch');
      return hasSubscribers({ name: ev['detail-type'], properties: ev.detail.properties as Record<string, unknown> });
    },
  },
);
