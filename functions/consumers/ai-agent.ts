import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { onCustomerMessage, onTeamMessage } from '../../shared/ai/agent.ts';
import { log } from '../../shared/log.ts';

/**
 * ai-agent consumer (issue 18): `message.received` -> the agent takes the customer's message up
 * (idempotent per message: the decision row is the claim); `message.sent` by a member -> the agent
 * pauses on that chat. Redelivery is harmless (receipts, and the claim).
 */
export const handler = sqsHandler('ai-agent', async (record) => {
  const { detail, 'detail-type': type } = parseEventRecord(record, 'ai-agent') as unknown as { 'detail-type': string; detail: { properties: Parameters<typeof onCustomerMessage>[0] } };
  const props = detail.properties;
  if (type === 'message.received') {
    const outcome = await onCustomerMessage(props);
    log('debug', 'ai.customer_message', { chat_id: props.message.chat_id, unique_id: props.message.unique_id, outcome });
  } else if (type === 'message.sent') await onTeamMessage(props);
});
