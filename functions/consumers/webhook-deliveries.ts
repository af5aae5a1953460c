import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { performAttempt } from '../../shared/webhooks/delivery.ts';

const Command = z.object({ org_id: z.string(), endpoint_id: z.string(), delivery_id: z.string(), attempt: z.number().int().positive() });

/** webhook-deliveries consumer: one attempt of one delivery (claim, sign, send, record, schedule the retry). */
export const handler = sqsHandler('webhook-deliveries', async (record) => {
  await performAttempt(parseCommandRecord(record, Command));
});
