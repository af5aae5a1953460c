import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { getTicketSettings } from '../../../shared/ticket/ticket.ts';

/** GET /api/orgs/{org_id}/settings/tickets -> `{ settings }` (labels, default_priority, default_assignee). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { settings: await getTicketSettings(actor) } }));
