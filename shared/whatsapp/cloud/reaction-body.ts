/**
 * The request body of a reaction, exactly per Meta's docs (whatsapp-protocols.md A.6 'reaction'):
 * an emoji on a message by its wamid; an empty emoji removes our reaction. Only a `sent` status
 * follows a reaction, never delivered/read; a target older than 30 days, deleted, or itself a
 * reaction fails with error 131009.
 */
export function reactionMessageBody(to: string, targetWamid: string, emoji: string, recipientType: 'individual' | 'group' = 'individual') {
  return { messaging_product: 'whatsapp', recipient_type: recipientType, to, type: 'reaction', reaction: { message_id: targetWamid, emoji } };
}
