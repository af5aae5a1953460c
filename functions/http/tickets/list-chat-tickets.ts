import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { listChatTickets } from '../../../shared/ticket/ticket.ts';

/** GET /api/orgs/{org_id}/chats/{chat_id}/tickets -> `{ tickets }`, open and in progress first. */
export const handler = httpHandler({ params: ChatParams }, async ({ actor, params }) => ({ body: { tickets: await listChatTickets(actor, params.chat_id) } }));
