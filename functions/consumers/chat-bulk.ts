import { z } from 'zod';
import { receiveCount, sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { runBulkStep } from '../../shared/bulk/bulk-job.ts';
// issue 15 (contacts3): contact CSV imports share this queue (no catalogue change)
import { isImportJobId, runImportStep } from '../../shared/contact/import.ts';
import { COMMAND_QUEUES } from '../../events/catalog.ts';

/** A step of a bulk job on the chat-bulk queue (shared/bulk/bulk-job.ts). */
const Step = z.object({ org_id: z.string(), job_id: z.string(), seq: z.number().int().min(0) });
const MAX_ATTEMPTS = COMMAND_QUEUES.find((q) => q.name === 'chat-bulk')!.maxReceiveCount;

/** chat-bulk consumer: runs one step of a bulk job and enqueues the next (runBulkStep); the last delivery attempt fails the job rather than leaving it running. */
export const handler = sqsHandler('chat-bulk', async (record) => {
  const step = parseCommandRecord(record, Step);
  if (isImportJobId(step.job_id)) await runImportStep(step, receiveCount(record), MAX_ATTEMPTS);
  else await runBulkStep(step, receiveCount(record), MAX_ATTEMPTS);
});
