import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { ReactionsQuery } from '../../../shared/message/reaction.schemas.ts';
import { listReactions } from '../../../shared/message/reactions.ts';

/** GET /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/reactions?limit&cursor: who reacted -> `{ reactions, cursor }`. */
export const handler = httpHandler({ params: MessageParams, query: ReactionsQuery }, async ({ actor, params, query }) => ({
  body: await listReactions(actor, params.chat_id, params.unique_id, query),
}));
