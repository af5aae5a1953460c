import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { dispatchBusEvent, hasSubscribers } from '../../shared/webhooks/delivery.ts';
import { entitledOrLog } from '../lib/entitled.ts';

/**
 * webhook-dispatch consumer: one bus event -> delivery rows of the org's subscribed endpoints
 * (shared/webhooks/delivery.ts). Events no enabled endpoint of the org subscribes to are skipped
 * before any table call (`hasSubscribers`, a per-process cache of the org's subscribed types).
 * Issue 42: an org whose plan lacks Custom API and webhooks (Starter, spec §9; Slack follows the same
 * tiers) or whose subscription or trial has ended gets no deliveries (entitledOrLog logs each refusal).
 */
export const handler = sqsHandler(
  'webhook-dispatch',
  async (record) => {
    const ev = parseEventRecord(record, 'webhook-dispatch');
    const props = ev.detail.properties as Record<string, unknown>;
    if (!(await entitledOrLog(String(props.org_id ?? ''), 'custom_api_webhooks', 'webhooks.dispatch', { event: ev['detail-type'] }))) return;
    await dispatchBusEvent({ name: ev['detail-type'], properties: ev.detail.properties as Record<string, unknown>, metadata: ev.detail.metadata });
  },
  {
    relevant: (record) => {
      const ev = parseEventRecord(record, 'webhook-dispatch');
      return hasSubscribers({ name: ev['detail-type'], properties: ev.detail.properties as Record<string, unknown> });
    },
  },
);
