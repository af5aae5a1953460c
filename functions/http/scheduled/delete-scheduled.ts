import { httpHandler } from '../../lib/http.ts';
import { ScheduleParams } from './params.ts';
import { deleteScheduled } from '../../../shared/schedule/scheduled.ts';

/** DELETE /api/orgs/{org_id}/scheduled/{schedule_id} -> 200 `{ deleted: true }` (404 for another member's). */
export const handler = httpHandler({ params: ScheduleParams }, async ({ actor, params }) => {
  await deleteScheduled(actor, params.schedule_id);
  return { body: { deleted: true } };
});
