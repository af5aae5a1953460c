import { httpHandler } from '../../lib/http.ts';
import { AuditQuery, TicketParams } from './params.ts';
import { listTicketAudit } from '../../../shared/ticket/ticket.ts';

/** GET /api/orgs/{org_id}/tickets/{ticket_id}/audit?cursor -> `{ entries, cursor }`, newest first. */
export const handler = httpHandler({ params: TicketParams, query: AuditQuery }, async ({ actor, params, query }) => ({ body: await listTicketAudit(actor, params.ticket_id, query.cursor) }));
