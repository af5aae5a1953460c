import { httpHandler } from '../../lib/http.ts';
import { TaskParams } from './params.ts';
import { RemindInInput } from '../../../shared/task/task.schemas.ts';
import { remindInTask } from '../../../shared/task/task.ts';

/** POST /api/orgs/{org_id}/tasks/{task_id}/remind-in `{ remind_in: 30_minutes | 1_hour | 1_day | 1_week }` -> `{ task }`. */
export const handler = httpHandler({ params: TaskParams, body: RemindInInput }, async ({ actor, params, body }) => ({ body: { task: await remindInTask(actor, params.task_id, body) } }));
