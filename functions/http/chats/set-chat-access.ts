import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from './params.ts';
import { ChatAccessInput } from '../../../shared/chat/chat.schemas.ts';
import { setChatAccess } from '../../../shared/chat/chat-workflow.ts';

/** PUT /api/orgs/{org_id}/chats/{chat_id}/access `{ chat_access: { email: boolean } }` -> `{ chat }` (admins; spec §6). */
export const handler = httpHandler({ params: ChatParams, body: ChatAccessInput }, async ({ actor, params, body }) => ({ body: { chat: await setChatAccess(actor, params.chat_id, body.chat_access) } }));
