import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { ForwardInput, forwardMessage } from '../../../shared/message/message-actions.ts';

/**
 * POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/forward `{ chat_ids (1..5) }` -> 201
 * `{ messages, failed: [{ chat_id, reason }] }` (text and media; each chat tried on its own).
 */
export const handler = httpHandler({ params: MessageParams, body: ForwardInput }, async ({ actor, params, body }) => ({
  status: 201,
  body: await forwardMessage(actor, params.chat_id, params.unique_id, body.chat_ids),
}));
