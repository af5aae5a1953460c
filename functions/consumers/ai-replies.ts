import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { cancelEndedReply, prepareReply } from '../../shared/ai/agent.ts';
import { entitlementRefusal } from '../lib/entitled.ts';

/** A delayed AI reply put on the ai-replies queue by the scheduler (shared/ai/agent.ts onCustomerMessage). */
const Command = z.object({ org_id: z.string(), chat_id: z.string(), unique_id: z.string() });

/**
 * ai-replies consumer: prepares and sends the reply unless the chat was taken over (prepareReply).
 * Issue 42: not when the org may no longer use the AI autoresponder (plan, ended subscription or
 * trial; logged with the reason, and after an end its decision is cancelled with the code as the
 * reason); a reply already queued is stopped at the outbound chokepoint.
 */
export const handler = sqsHandler('ai-replies', async (record) => {
  const cmd = parseCommandRecord(record, Command);
  const refusal = await entitlementRefusal(cmd.org_id, 'ai_autoresponder', 'ai.reply', { chat_id: cmd.chat_id, unique_id: cmd.unique_id });
  if (refusal) {
    // issue 42 §2: the waiting decision says why no reply came (AI decisions log)
    if (refusal.code !== 'plan_feature') await cancelEndedReply(cmd, refusal.code);
    return;
  }
  await prepareReply(cmd);
});
