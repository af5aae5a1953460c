import { sqsHandler, receiveCount } from '../lib/sqs.ts';
import { deliverMessage, outboundMessage, type OutboundCommand } from '../../shared/inbox/send.ts';
import { COMMAND_QUEUES } from '../../events/catalog.ts';
import { deliverReaction, type ReactionCommand } from '../../shared/message/message-actions.ts';
import { handOverToWaWeb } from '../../shared/whatsapp/web/outbound.ts';

/**
 * whatsapp-outbound queue consumer: send each queued message (or reaction, `kind: 'reaction'`) through the Graph API,
 * or, for a linked WhatsApp Web number, hand it to that number's session worker (handOverToWaWeb).
 * Retryable Graph errors (rate limits, 5xx, network) throw so the queue retries; on the last
 * allowed attempt the message is marked failed with the reason instead.
 */
const MAX = COMMAND_QUEUES.find((q) => q.name === 'whatsapp-outbound')!.maxReceiveCount;

export const handler = sqsHandler('whatsapp-outbound', async (record) => {
  const cmd = JSON.parse(record.body) as OutboundCommand | ReactionCommand;
  const isReaction = 'kind' in cmd && cmd.kind === 'reaction';
  // a message is read once, for the hand-over check and the delivery
  const msg = isReaction ? undefined : await outboundMessage(cmd as OutboundCommand);
  // a linked WhatsApp Web number: its session worker sends (wa-web-commands), not the Graph API
  if (await handOverToWaWeb(cmd, msg)) return;
  if (isReaction) await deliverReaction(cmd as ReactionCommand, receiveCount(record), MAX);
  else await deliverMessage(cmd as OutboundCommand, receiveCount(record), MAX, msg);
});
