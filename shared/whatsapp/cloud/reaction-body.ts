import type { SendTarget } from '../../chat/send-target.rules.ts';

/**
 * The request body of a reaction, exactly per Meta's docs (whatsapp-protocols.md A.6 'reaction'):
 * an emoji on a message by its wamid; an empty emoji removes our reaction. Only a `sent` status
 * follows a reaction, never delivered/read; a target older than 30 days, deleted, or itself a
 * reaction fails with error 131009. `target` (chat/send-target.rules.ts sendTargetOf) addresses it
 * like any send: `to` a number or group, `recipient` a BSUID.
 */
export function reactionMessageBody(target: SendTarget, targetWamid: string, emoji: string) {
  return { messaging_product: 'whatsapp', ...target, type: 'reaction', reaction: { message_id: targetWamid, emoji } };
}
