import { z } from 'zod';
import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { FlagChatsInput } from '../../../shared/chat/chat.schemas.ts';
import { pinChats } from '../../../shared/chat/chat-workflow.ts';

const Body = FlagChatsInput('is_pinned') as unknown as z.ZodType<{ chat_ids: string[]; is_pinned: boolean }>;

/** POST /api/orgs/{org_id}/chats/pin `{ chat_ids, is_pinned }` -> `{ chats, failed }` (pins are per member). */
export const handler = httpHandler({ params: OrgParams, body: Body, perChat: ['chat_ids'] }, async ({ actor, body }) => ({
  body: await pinChats(actor, body.chat_ids, body.is_pinned),
}));
