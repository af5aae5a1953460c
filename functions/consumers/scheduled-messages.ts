import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { ScheduledWakeup } from '../../shared/schedule/scheduled.schemas.ts';
import { fireScheduled } from '../../shared/schedule/scheduled.ts';

/** scheduled-messages consumer: sends a due occurrence as its member, or ignores a stale wake-up (fireScheduled). */
export const handler = sqsHandler('scheduled-messages', async (record) => {
  const w = parseCommandRecord(record, ScheduledWakeup);
  await fireScheduled(w.org_id, w.schedule_id, w.at);
});
