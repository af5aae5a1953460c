import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { hasPushDevices, pushForEvent, type PushEvent } from '../../shared/push/push.ts';

/**
 * web-push consumer (issue 21): turns message, notification, task reminder and ticket events into
 * web pushes to the members' registered devices (shared/push/push.ts pushForEvent: guard,
 * preferences, quiet hours, stale subscriptions deleted). A failing device is logged, not retried;
 * a failing table read fails the record (retried, then dead-lettered).
 */
export const handler = sqsHandler(
  'web-push',
  async (record) => {
    const ev = parseEventRecord(record, 'web-push');
    await pushForEvent({ name: ev['detail-type'], properties: ev.detail.properties, id: ev.detail.metadata.id, actor: ev.detail.metadata.actor } as PushEvent);
  },
  // an org where nobody registered a device: no table call per event (hasPushDevices, cached 5 s)
  { relevant: (record) => hasPushDevices(String((parseEventRecord(record, 'web-push').detail.properties as { org_id?: unknown }).org_id ?? '')) },
);
