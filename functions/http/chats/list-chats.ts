import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { ListChatsQuery } from '../../../shared/chat/chat.schemas.ts';
import { listChats } from '../../../shared/chat/chat-list.ts';

/** GET /api/orgs/{org_id}/chats?state&unread&assignee&label_id&phone&type&limit&cursor -> `{ chats, cursor, pinned? }` (issue 4 filters). */
export const handler = httpHandler({ params: OrgParams, query: ListChatsQuery }, async ({ actor, query }) => ({ body: await listChats(actor, query) }));
