import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { PinnedChatsQuery } from '../../../shared/chat/chat.schemas.ts';
import { listPinnedChats } from '../../../shared/chat/chat-list.ts';

/** GET /api/orgs/{org_id}/chats/pinned?<the list's filters> -> `{ chats }`: the caller's pinned chats (per member), newest pin first. */
export const handler = httpHandler({ params: OrgParams, query: PinnedChatsQuery }, async ({ actor, query }) => ({ body: await listPinnedChats(actor, query) }));
