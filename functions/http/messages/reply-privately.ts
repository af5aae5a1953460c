import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { replyPrivately } from '../../../shared/message/reply-privately.ts';

/**
 * POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reply-privately -> 200 (201 when the
 * 1:1 chat was created) `{ chat, created, quote }`: the 1:1 chat with the group message's sender and
 * the quote to send with (`quoted_message_id` = quote.message_id, `quoted_chat_id` = quote.chat_id).
 */
export const handler = httpHandler({ params: MessageParams }, async ({ actor, params }) => {
  const out = await replyPrivately(actor, params.chat_id, params.unique_id);
  return { status: out.created ? 201 : 200, body: out };
});
