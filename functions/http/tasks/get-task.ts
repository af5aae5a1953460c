import { httpHandler } from '../../lib/http.ts';
import { TaskParams } from './params.ts';
import { getTask } from '../../../shared/task/task.ts';

/** GET /api/orgs/{org_id}/tasks/{task_id} -> `{ task }`; 404 when the caller may not see it. */
export const handler = httpHandler({ params: TaskParams }, async ({ actor, params }) => ({ body: { task: await getTask(actor, params.task_id) } }));
