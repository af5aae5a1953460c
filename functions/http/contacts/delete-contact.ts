import { httpHandler } from '../../lib/http.ts';
import { ContactParams } from './params.ts';
import { deleteContact } from '../../../shared/contact/contact.ts';

/** DELETE /api/orgs/{org_id}/contacts/{contact_id} -> `{ deleted: true, contact_id }`; chats and messages are kept. */
export const handler = httpHandler({ params: ContactParams }, async ({ actor, params }) => ({ body: await deleteContact(actor, params.contact_id) }));
