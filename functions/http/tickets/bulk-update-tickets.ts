import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { BulkUpdateTicketsInput } from '../../../shared/ticket/ticket.schemas.ts';
import { bulkUpdateTickets } from '../../../shared/ticket/ticket.ts';

/** POST /api/orgs/{org_id}/tickets/bulk `{ ticket_ids (≤100), status?, assignee? }` -> `{ updated, failed: [{ ticket_id, reason }] }`. */
export const handler = httpHandler({ params: OrgParams, body: BulkUpdateTicketsInput }, async ({ actor, body }) => ({ body: await bulkUpdateTickets(actor, body) }));
