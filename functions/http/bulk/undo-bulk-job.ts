import { httpHandler } from '../../lib/http.ts';
import { BulkJobParams } from './params.ts';
import { undoBulkJob } from '../../../shared/bulk/bulk-job.ts';

/** POST /api/orgs/{org_id}/chats/bulk-jobs/{job_id}/undo -> 202 `{ job }` (the undo job); 409 when not undoable or already undone. */
export const handler = httpHandler({ params: BulkJobParams }, async ({ actor, params }) => ({ status: 202, body: { job: await undoBulkJob(actor, params.job_id) } }));
