import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { prepareReply } from '../../shared/ai/agent.ts';

/** A delayed AI reply put on the ai-replies queue by the scheduler (shared/ai/agent.ts onCustomerMessage). */
const Command = z.object({ org_id: z.string(), chat_id: z.string(), unique_id: z.string() });

/** ai-replies consumer: prepares and sends the reply unless the chat was taken over (prepareReply). */
export const handler = sqsHandler('ai-replies', async (record) => {
  await prepareReply(parseCommandRecord(record, Command));
});
