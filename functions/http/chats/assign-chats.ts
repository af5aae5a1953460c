import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { AssignChatsInput } from '../../../shared/chat/chat.schemas.ts';
import { assignChats } from '../../../shared/chat/chat-workflow.ts';

/** POST /api/orgs/{org_id}/chats/assign `{ chat_ids, assigned_to }` -> `{ chats, failed }` (spec §7 chat assignment). */
export const handler = httpHandler({ params: OrgParams, body: AssignChatsInput, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ body: await assignChats(actor, body.chat_ids, body.assigned_to) }));
