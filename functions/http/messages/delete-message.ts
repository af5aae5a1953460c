import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { deleteMessage } from '../../../shared/message/message-edit.ts';

/**
 * DELETE /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id} -> 202 `{ message }`: deleted for
 * everyone (`delete_status: 'pending'` until the number's WhatsApp session confirms it; the team
 * keeps the body for the audit). 400 with the spec §5 rule's reason, e.g. 'Cannot delete messages
 * older than 48 hrs'.
 */
export const handler = httpHandler({ params: MessageParams }, async ({ actor, params }) => ({
  status: 202,
  body: { message: await deleteMessage(actor, params.chat_id, params.unique_id) },
}));
