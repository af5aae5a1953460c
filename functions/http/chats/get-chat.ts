import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from './params.ts';
import { getChat } from '../../../shared/chat/chat.ts';

/** GET /api/orgs/{org_id}/chats/{chat_id} -> `{ chat }`; 404 outside the caller's org. */
export const handler = httpHandler({ params: ChatParams }, async ({ actor, params }) => ({ body: { chat: await getChat(actor, params.chat_id) } }));
