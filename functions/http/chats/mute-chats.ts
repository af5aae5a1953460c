import { z } from 'zod';
import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { FlagChatsInput } from '../../../shared/chat/chat.schemas.ts';
import { flagChats } from '../../../shared/chat/chat-workflow.ts';

const Body = FlagChatsInput('is_muted') as unknown as z.ZodType<{ chat_ids: string[]; is_muted: boolean }>;

/** POST /api/orgs/{org_id}/chats/mute `{ chat_ids, is_muted }` -> `{ chats, failed }`. */
export const handler = httpHandler({ params: OrgParams, body: Body, perChat: ['chat_ids'] }, async ({ actor, body }) => ({
  body: await flagChats(actor, body.chat_ids, 'is_muted', body.is_muted),
}));
