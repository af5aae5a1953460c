import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { onCustomerMessage, onTeamMessage, recordEndedDecision } from '../../shared/ai/agent.ts';
import { log } from '../../shared/log.ts';
import { aiAgentEnabled } from '../../shared/ai/faq.ts';
import type { SQSRecord } from 'aws-lambda';
import { entitlementRefusal } from '../lib/entitled.ts';

/**
 * ai-agent consumer (issue 18): `message.received` -> the agent takes the customer's message up
 * (idempotent per message: the decision row is the claim); `message.sent` by a member -> the agent
 * pauses on that chat. Redelivery is harmless (receipts, and the claim).
 * Issue 42: a customer's message is taken up only while the org may use the AI autoresponder
 * (entitlements.rules.ts: the plan has it and the subscription or trial has not ended; logged
 * otherwise, and an end is written to the AI decisions log with its code as the reason).
 */
type AgentEvent = { 'detail-type': string; detail: { properties: Parameters<typeof onCustomerMessage>[0] } };
const eventOf = (record: SQSRecord) => parseEventRecord(record, 'ai-agent') as unknown as AgentEvent;

export const handler = sqsHandler(
  'ai-agent',
  async (record) => {
    const { detail, 'detail-type': type } = eventOf(record);
    const props = detail.properties;
    if (type === 'message.received') {
      const refusal = await entitlementRefusal(props.org_id, 'ai_autoresponder', 'ai.customer_message', { chat_id: props.message.chat_id, unique_id: props.message.unique_id });
      if (refusal) {
        // issue 42 §2: an end is shown in the AI decisions log (a plan without the agent stays silent, as before)
        if (refusal.code !== 'plan_feature') await recordEndedDecision(props, refusal.code);
        return;
      }
      const outcome = await onCustomerMessage(props);
      log('debug', 'ai.customer_message', { chat_id: props.message.chat_id, unique_id: props.message.unique_id, outcome });
    } else if (type === 'message.sent') await onTeamMessage(props);
  },
  {
    // every message matters only while the agent is on (aiAgentEnabled: cached 5 s, no table call per
    // message): a customer's for an answer, a team message to pause the agent on that chat. With the
    // agent off there is nothing to pause (issue 16's bench: a chat write and its event per outbound
    // message of a broadcast, for an agent that was off)
    relevant: (record) => {
      const { detail, 'detail-type': type } = eventOf(record);
      if (type === 'message.received' && detail.properties.message.from_me) return false;
      return aiAgentEnabled(detail.properties.org_id);
    },
  },
);
