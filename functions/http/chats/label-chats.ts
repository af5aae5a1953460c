import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { ChatLabelsInput } from '../../../shared/chat/chat.schemas.ts';
import { labelChats } from '../../../shared/chat/chat-workflow.ts';

/** POST /api/orgs/{org_id}/chats/labels `{ chat_ids, label_ids? | add? | remove? }` -> `{ chats, failed }` (spec §7 chat label update). */
export const handler = httpHandler({ params: OrgParams, body: ChatLabelsInput, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ body: await labelChats(actor, body.chat_ids, body) }));
