import { httpHandler } from '../../lib/http.ts';
import { TicketParams } from './params.ts';
import { UpdateTicketInput } from '../../../shared/ticket/ticket.schemas.ts';
import { updateTicket } from '../../../shared/ticket/ticket.ts';

/** PATCH /api/orgs/{org_id}/tickets/{ticket_id} `{ subject?, status?, priority?, assignee?, due_date?, labels? }` -> `{ ticket }`. */
export const handler = httpHandler({ params: TicketParams, body: UpdateTicketInput }, async ({ actor, params, body }) => ({ body: { ticket: await updateTicket(actor, params.ticket_id, body) } }));
