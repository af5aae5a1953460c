import { z } from 'zod';
import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { FlagChatsInput } from '../../../shared/chat/chat.schemas.ts';
import { flagChats } from '../../../shared/chat/chat-workflow.ts';

const Body = FlagChatsInput('is_archived') as unknown as z.ZodType<{ chat_ids: string[]; is_archived: boolean }>;

/** POST /api/orgs/{org_id}/chats/archive `{ chat_ids, is_archived }` -> `{ chats, failed }`. */
export const handler = httpHandler({ params: OrgParams, body: Body, perChat: ['chat_ids'] }, async ({ actor, body }) => ({
  body: await flagChats(actor, body.chat_ids, 'is_archived', body.is_archived),
}));
