import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from './params.ts';
import { markChatRead } from '../../../shared/chat/chat.ts';

/** POST /api/orgs/{org_id}/chats/{chat_id}/read: reset unread counters -> `{ chat }`. */
export const handler = httpHandler({ params: ChatParams }, async ({ actor, params }) => ({ body: { chat: await markChatRead(actor, params.chat_id) } }));
