import { httpHandler } from '../../lib/http.ts';
import { BulkJobParams } from './params.ts';
import { getBulkJob } from '../../../shared/bulk/bulk-job.ts';

/** GET /api/orgs/{org_id}/chats/bulk-jobs/{job_id} -> `{ job }`; 404 for another org's or another member's job. */
export const handler = httpHandler({ params: BulkJobParams }, async ({ actor, params }) => ({ body: { job: await getBulkJob(actor, params.job_id) } }));
