import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { TicketSettingsInput } from '../../../shared/ticket/ticket.schemas.ts';
import { updateTicketSettings } from '../../../shared/ticket/ticket.ts';

/** PUT /api/orgs/{org_id}/settings/tickets `{ labels, default_priority, default_assignee }` -> `{ settings }`; 403 for members. */
export const handler = httpHandler({ params: OrgParams, body: TicketSettingsInput }, async ({ actor, body }) => {
  const settings = await updateTicketSettings(actor, body);
  return { body: { settings } };
});
