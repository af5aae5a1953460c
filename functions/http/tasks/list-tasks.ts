import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListTasksQuery } from '../../../shared/task/task.schemas.ts';
import { listTasks } from '../../../shared/task/task.ts';

/** GET /api/orgs/{org_id}/tasks?scope=mine|all&limit&cursor -> `{ tasks, cursor }` (scope all: admins). */
export const handler = httpHandler({ params: OrgParams, query: ListTasksQuery }, async ({ actor, query }) => ({ body: await listTasks(actor, query) }));
