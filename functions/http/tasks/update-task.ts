import { httpHandler } from '../../lib/http.ts';
import { TaskParams } from './params.ts';
import { UpdateTaskInput } from '../../../shared/task/task.schemas.ts';
import { updateTask } from '../../../shared/task/task.ts';

/** PUT /api/orgs/{org_id}/tasks/{task_id} with the whole editable task -> `{ task }`. */
export const handler = httpHandler({ params: TaskParams, body: UpdateTaskInput }, async ({ actor, params, body }) => ({ body: { task: await updateTask(actor, params.task_id, body) } }));
