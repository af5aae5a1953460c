import { httpHandler } from '../../lib/http.ts';
import { AuditQuery, TaskParams } from './params.ts';
import { listTaskAudit } from '../../../shared/task/task.ts';

/** GET /api/orgs/{org_id}/tasks/{task_id}/audit?cursor -> `{ entries, cursor }`, newest first. */
export const handler = httpHandler({ params: TaskParams, query: AuditQuery }, async ({ actor, params, query }) => ({ body: await listTaskAudit(actor, params.task_id, query.cursor) }));
