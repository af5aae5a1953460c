import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from './params.ts';
import { markChatUnread } from '../../../shared/chat/chat-workflow.ts';

/** POST /api/orgs/{org_id}/chats/{chat_id}/unread -> `{ chat }` (mark as unread). */
export const handler = httpHandler({ params: ChatParams }, async ({ actor, params }) => ({ body: { chat: await markChatUnread(actor, params.chat_id) } }));
