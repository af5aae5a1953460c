import { httpHandler } from '../../lib/http.ts';
import { ContactParams } from './params.ts';
import { getContact } from '../../../shared/contact/contact.ts';

/** GET /api/orgs/{org_id}/contacts/{contact_id} -> `{ contact, chats }` (its chats on each org number). */
export const handler = httpHandler({ params: ContactParams }, async ({ actor, params }) => ({ body: await getContact(actor, params.contact_id) }));
