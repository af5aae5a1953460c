import { httpHandler } from '../../lib/http.ts';
import { ScheduleParams } from './params.ts';
import { skipNext } from '../../../shared/schedule/scheduled.ts';

/** POST /api/orgs/{org_id}/scheduled/{schedule_id}/skip -> 200 `{ scheduled }` (the next occurrence is skipped; 404 for another member's). */
export const handler = httpHandler({ params: ScheduleParams }, async ({ actor, params }) => ({ body: { scheduled: await skipNext(actor, params.schedule_id) } }));
