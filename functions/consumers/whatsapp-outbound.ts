import { sqsHandler, receiveCount } from '../lib/sqs.ts';
import { deliverMessage, markFailed, outboundMessage, type OutboundCommand } from '../../shared/inbox/send.ts';
import { COMMAND_QUEUES } from '../../events/catalog.ts';
import { deliverReaction, type ReactionCommand } from '../../shared/message/message-actions.ts';
import { handOverToWaWeb } from '../../shared/whatsapp/web/outbound.ts';
import { orgEntitlement } from '../../shared/plan/gate.ts';
import { log } from '../../shared/log.ts';

/**
 * whatsapp-outbound queue consumer: send each queued message (or reaction, `kind: 'reaction'`) through the Graph API,
 * or, for a linked WhatsApp Web number, hand it to that number's session worker (handOverToWaWeb).
 * Retryable Graph errors (rate limits, 5xx, network) throw so the queue retries; on the last
 * allowed attempt the message is marked failed with the reason instead.
 *
 * The send chokepoint of the entitlement gate (issue 42): every message to a customer passes here
 * (the web API, `/v1`, MCP, rules, the AI agent, broadcasts, scheduled messages), so the org's
 * subscription is checked here once more, read fresh (not the 5 s cache): after a cancel, an ended
 * subscription or an expired trial nothing more reaches WhatsApp, and each refused message is marked
 * failed with the reason (never dropped silently). A refused reaction is logged.
 */
const MAX = COMMAND_QUEUES.find((q) => q.name === 'whatsapp-outbound')!.maxReceiveCount;

export const handler = sqsHandler('whatsapp-outbound', async (record) => {
  const cmd = JSON.parse(record.body) as OutboundCommand | ReactionCommand;
  const isReaction = 'kind' in cmd && cmd.kind === 'reaction';
  // a message is read once, for the hand-over check and the delivery
  const msg = isReaction ? undefined : await outboundMessage(cmd as OutboundCommand);
  const allowed = await orgEntitlement(cmd.org_id, 'write', { fresh: true });
  if (!allowed.allowed) {
    log('warn', 'outbound.refused_by_plan', { org_id: cmd.org_id, chat_id: cmd.chat_id, unique_id: cmd.unique_id, code: allowed.code, reaction: isReaction });
    // not yet sent, failed or uncertain: record the refusal on the message
    if (msg && !msg.message_id && msg.ack !== -1 && msg.send_uncertain_at == null) {
      const c = cmd as OutboundCommand;
      await markFailed({ org_id: c.org_id, chat_id: c.chat_id, timestamp: c.timestamp, unique_id: c.unique_id }, msg, { code: null, title: null, details: `Checked by Chorus before sending: ${allowed.code}.`, reason: allowed.message });
    }
    return;
  }
  // a linked WhatsApp Web number: its session worker sends (wa-web-commands), not the Graph API
  if (await handOverToWaWeb(cmd, msg)) return;
  if (isReaction) await deliverReaction(cmd as ReactionCommand, receiveCount(record), MAX);
  else await deliverMessage(cmd as OutboundCommand, receiveCount(record), MAX, msg);
});
