import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { BulkUpdateTasksInput } from '../../../shared/task/task.schemas.ts';
import { bulkUpdateTasks } from '../../../shared/task/task.ts';

/** POST /api/orgs/{org_id}/tasks/bulk `{ task_ids, status?, assignee?, priority? }` -> `{ updated, failed }`. */
export const handler = httpHandler({ params: OrgParams, body: BulkUpdateTasksInput }, async ({ actor, body }) => ({ body: await bulkUpdateTasks(actor, body) }));
