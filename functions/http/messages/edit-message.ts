import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { EditMessageInput, editMessage } from '../../../shared/message/message-edit.ts';

/**
 * PATCH /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id} `{ body }` -> 202 `{ message }`:
 * the edited message (`edit_status: 'pending'` until the number's WhatsApp session confirms it).
 * 400 with the spec §5 rule's reason when the message cannot be edited.
 */
export const handler = httpHandler({ params: MessageParams, body: EditMessageInput }, async ({ actor, params, body }) => ({
  status: 202,
  body: { message: await editMessage(actor, params.chat_id, params.unique_id, body.body) },
}));
