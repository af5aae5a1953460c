import { httpHandler } from '../../lib/http.ts';
import { TicketParams } from './params.ts';
import { getTicket } from '../../../shared/ticket/ticket.ts';

/** GET /api/orgs/{org_id}/tickets/{ticket_id} -> `{ ticket, messages }`; 404 outside the caller's org. */
export const handler = httpHandler({ params: TicketParams }, async ({ actor, params }) => ({ body: await getTicket(actor, params.ticket_id) }));
