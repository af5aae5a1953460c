import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { SnoozeChatsInput } from '../../../shared/chat/chat.schemas.ts';
import { snoozeChats } from '../../../shared/chat/chat-workflow.ts';

/** POST /api/orgs/{org_id}/chats/snooze `{ chat_ids, snooze_until (epoch ms) | null }` -> `{ chats, failed }`. */
export const handler = httpHandler({ params: OrgParams, body: SnoozeChatsInput, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ body: await snoozeChats(actor, body.chat_ids, body.snooze_until) }));
