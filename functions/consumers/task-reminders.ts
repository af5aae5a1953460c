import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { fireTaskReminder } from '../../shared/task/task.ts';

/** A wake-up put on the task-reminders queue by the scheduler (shared/task/task.ts armReminder). */
const Wakeup = z.object({ org_id: z.string(), task_id: z.string(), remind_at: z.number() });

/** task-reminders consumer: fires the reminder, or ignores a stale wake-up (fireTaskReminder). */
export const handler = sqsHandler('task-reminders', async (record) => {
  const w = parseCommandRecord(record, Wakeup);
  await fireTaskReminder(w.org_id, w.task_id, w.remind_at);
});
