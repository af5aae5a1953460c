import { z } from 'zod';
import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { AttachTicketInput } from '../../../shared/ticket/ticket.schemas.ts';
import { setMessageTicket } from '../../../shared/ticket/ticket.ts';

const Params = ChatParams.extend({ unique_id: z.string().min(1, 'is required').max(100, 'is too long') });

/** PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/ticket `{ message_ticket_id | null }` -> `{ ticket, message }` (spec §7 attach or detach). */
export const handler = httpHandler({ params: Params, body: AttachTicketInput }, async ({ actor, params, body }) => ({
  body: await setMessageTicket(actor, params.chat_id, params.unique_id, body.message_ticket_id),
}));
