import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { getTicketBadge } from '../../../shared/ticket/ticket.ts';

/** GET /api/orgs/{org_id}/tickets/badge -> `{ count }`: tickets assigned to the caller, open or in progress (spec §2). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { count: await getTicketBadge(actor) } }));
