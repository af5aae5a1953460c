import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { SendMessageInput } from '../../../shared/message/message.schemas.ts';
import { sendMessage } from '../../../shared/inbox/send.ts';

/**
 * POST /api/orgs/{org_id}/chats/{chat_id}/messages `{ body, quoted_message_id? }` or
 * `{ media: { key, filename, mimetype }, caption?, quoted_message_id? }` -> 201 `{ message }` (ack 0, queued for WhatsApp).
 */
export const handler = httpHandler({ params: ChatParams, body: SendMessageInput }, async ({ actor, guard, params, body }) => ({
  status: 201,
  // the quote (a customer's message, or a group member's for reply privately) is masked like any message
  body: { message: guard.viewMessage(await sendMessage(actor, params.chat_id, body)) },
}));
