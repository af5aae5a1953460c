import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ContactListQuery } from '../../../shared/contact/contact.schemas.ts';
import { listContactBook } from '../../../shared/contact/contact.ts';

/** GET /api/orgs/{org_id}/contacts?q&label_id&property_id&property_value&phone_id&seen_from&seen_to&sort&order&limit&cursor -> `{ contacts, cursor }` (spec §6 contacts permission). */
export const handler = httpHandler({ params: OrgParams, query: ContactListQuery }, async ({ actor, query }) => ({ body: await listContactBook(actor, query) }));
