import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateTaskInput } from '../../../shared/task/task.schemas.ts';
import { createTask } from '../../../shared/task/task.ts';

/** POST /api/orgs/{org_id}/tasks `CreateTaskInput` -> 201 `{ task }`. */
export const handler = httpHandler({ params: OrgParams, body: CreateTaskInput }, async ({ actor, body }) => ({ status: 201, body: { task: await createTask(actor, body) } }));
