import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { PageQuery } from '../../../shared/message/message.schemas.ts';
import { listMessages } from '../../../shared/message/message.ts';

/** GET /api/orgs/{org_id}/chats/{chat_id}/messages?limit&cursor: newest first -> `{ messages, cursor }`. */
export const handler = httpHandler({ params: ChatParams, query: PageQuery }, async ({ actor, params, query }) => ({
  body: await listMessages(actor, params.chat_id, query),
}));
