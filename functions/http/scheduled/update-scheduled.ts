import { httpHandler } from '../../lib/http.ts';
import { ScheduleParams } from './params.ts';
import { UpdateScheduledInput } from '../../../shared/schedule/scheduled.schemas.ts';
import { updateScheduled } from '../../../shared/schedule/scheduled.ts';

/** PATCH /api/orgs/{org_id}/scheduled/{schedule_id} `{ body?, template?, recurrence?, status? }` -> 200 `{ scheduled }` (edit, pause, resume; 404 for another member's). */
export const handler = httpHandler({ params: ScheduleParams, body: UpdateScheduledInput }, async ({ actor, params, body }) => ({ body: { scheduled: await updateScheduled(actor, params.schedule_id, body) } }));
