import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { ScheduledWakeup } from '../../shared/schedule/scheduled.schemas.ts';
import { fireScheduled } from '../../shared/schedule/scheduled.ts';

/**
 * scheduled-messages consumer: sends a due occurrence as its member, or ignores a stale wake-up (fireScheduled).
 * Issue 42: the occurrence is queued as usual after an end, and the outbound chokepoint
 * (whatsapp-outbound.ts) fails it with the reason, so the member sees why it was not sent.
 */
export const handler = sqsHandler('scheduled-messages', async (record) => {
  const w = parseCommandRecord(record, ScheduledWakeup);
  await fireScheduled(w.org_id, w.schedule_id, w.at);
});
