import { httpHandler } from '../../lib/http.ts';
import { ContactParams } from './params.ts';
import { UpdateContactInput } from '../../../shared/contact/contact.schemas.ts';
import { updateContact } from '../../../shared/contact/contact.ts';

/** PATCH /api/orgs/{org_id}/contacts/{contact_id} `{ name?, label_ids?, custom_properties?, notes? }` -> `{ contact }`. */
export const handler = httpHandler({ params: ContactParams, body: UpdateContactInput }, async ({ actor, params, body }) => ({ body: { contact: await updateContact(actor, params.contact_id, body) } }));
