import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateTicketInput } from '../../../shared/ticket/ticket.schemas.ts';
import { createTicket } from '../../../shared/ticket/ticket.ts';

/** POST /api/orgs/{org_id}/tickets `{ chat_id, quoted_message_id, subject?, priority?, assignee?, due_date?, labels? }` -> 201 `{ ticket, message }`; 409 when the message has a ticket. */
export const handler = httpHandler({ params: OrgParams, body: CreateTicketInput }, async ({ actor, body }) => ({ status: 201, body: await createTicket(actor, body) }));
