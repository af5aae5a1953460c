import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { CloseChatsInput } from '../../../shared/chat/chat.schemas.ts';
import { closeChats } from '../../../shared/chat/chat-workflow.ts';

/** POST /api/orgs/{org_id}/chats/close `{ chat_ids, is_closed, type: 'all' | 'me' }` -> `{ chats, failed }` (spec §7 chat close). */
export const handler = httpHandler({ params: OrgParams, body: CloseChatsInput, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ body: await closeChats(actor, body.chat_ids, body.is_closed, body.type) }));
