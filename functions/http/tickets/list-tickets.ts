import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListTicketsQuery } from '../../../shared/ticket/ticket.schemas.ts';
import { listTickets } from '../../../shared/ticket/ticket-list.ts';

/** GET /api/orgs/{org_id}/tickets?status&priority&assignee&label&phone_id&due_from&due_to&q&sort&limit&cursor -> `{ tickets, cursor }`. */
export const handler = httpHandler({ params: OrgParams, query: ListTicketsQuery }, async ({ actor, query }) => ({ body: await listTickets(actor, query) }));
