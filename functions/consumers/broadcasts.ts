import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { runBroadcastStep } from '../../shared/broadcast/broadcast.ts';

/** A step of a broadcast on the broadcasts queue (shared/broadcast/broadcast.ts). */
const Step = z.object({ org_id: z.string(), broadcast_id: z.string(), seq: z.number().int().min(0) });

/** broadcasts consumer: runs one engine step (sends paced for up to one step budget, then enqueues the next). Stale steps do nothing. */
export const handler = sqsHandler('broadcasts', async (record) => {
  await runBroadcastStep(parseCommandRecord(record, Step));
});
