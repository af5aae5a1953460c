import { sqsHandler, receiveCount } from '../../lib/sqs.ts';
import { deliverMessage, type OutboundCommand } from '../../../shared/inbox/send.ts';
import { COMMAND_QUEUES } from '../../../events/catalog.ts';

/**
 * whatsapp-outbound queue consumer: send each queued message through the Graph API.
 * Retryable Graph errors (rate limits, 5xx, network) throw so the queue retries; on the last
 * allowed attempt the message is marked failed with the reason instead.
 */
const MAX = COMMAND_QUEUES.find((q) => q.name === 'whatsapp-outbound')!.maxReceiveCount;

export const handler = sqsHandler('whatsapp-outbound', async (record) => {
  const cmd = JSON.parse(record.body) as OutboundCommand;
  await deliverMessage(cmd, receiveCount(record), MAX);
});
