import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { performAttempt } from '../../shared/webhooks/delivery.ts';
import { entitledOrLog } from '../lib/entitled.ts';

const Command = z.object({ org_id: z.string(), endpoint_id: z.string(), delivery_id: z.string(), attempt: z.number().int().positive() });

/**
 * webhook-deliveries consumer: one attempt of one delivery (claim, sign, send, record, schedule the retry).
 * Issue 42: no attempt once the org may not use webhooks (plan or an ended subscription; logged).
 */
export const handler = sqsHandler('webhook-deliveries', async (record) => {
  const cmd = parseCommandRecord(record, Command);
  if (!(await entitledOrLog(cmd.org_id, 'custom_api_webhooks', 'webhooks.attempt', { endpoint_id: cmd.endpoint_id, delivery_id: cmd.delivery_id }))) return;
  await performAttempt(cmd);
});
