import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { PageQuery } from '../../../shared/message/message.schemas.ts';
import { listChats } from '../../../shared/chat/chat.ts';

/** GET /api/orgs/{org_id}/chats?limit&cursor: chats newest first -> `{ chats, cursor }`. */
export const handler = httpHandler({ params: OrgParams, query: PageQuery }, async ({ actor, query }) => ({ body: await listChats(actor, query) }));
