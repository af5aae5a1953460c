import { z } from 'zod';

/**
 * Contracts of the bulk job events. The snapshot is the API's BulkJob wire shape
 * (shared/bulk/bulk-job.schemas.ts); only the fields consumers rely on are required.
 * Realtime fan-out sends a job's updates only to its creator's connections.
 */
export const BulkJobSnapshot = z
  .object({
    job_id: z.string(),
    action: z.string(),
    status: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
    total: z.number(),
    processed: z.number(),
    /** member email: the only recipient of the job's events */
    created_by: z.string(),
  })
  .passthrough();

/** bulk_job.updated v1: a bulk job started, processed a chunk of chats, or finished. */
export const BulkJobUpdatedV1 = z.object({ org_id: z.string(), job: BulkJobSnapshot });
