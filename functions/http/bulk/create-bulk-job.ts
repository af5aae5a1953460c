import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateBulkJobInput } from '../../../shared/bulk/bulk-job.schemas.ts';
import { createBulkJob } from '../../../shared/bulk/bulk-job.ts';

/**
 * POST /api/orgs/{org_id}/chats/bulk-jobs `{ action, params: { assigned_to | label_ids }, chat_ids (≤ 10,000) | filter }`
 * -> 202 `{ job }`; progress follows as `bulk_job.updated` (and GET …/bulk-jobs/{job_id}).
 */
export const handler = httpHandler({ params: OrgParams, body: CreateBulkJobInput, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ status: 202, body: { job: await createBulkJob(actor, body) } }));
