import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { ReactionInput, reactToMessage } from '../../../shared/message/message-actions.ts';

/** POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reaction `{ reaction }` ('' removes) -> 202 `{ message }` (sent in the background). */
export const handler = httpHandler({ params: MessageParams, body: ReactionInput }, async ({ actor, params, body }) => ({
  status: 202,
  body: { message: await reactToMessage(actor, params.chat_id, params.unique_id, body.reaction) },
}));
