import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateContactInput } from '../../../shared/contact/contact.schemas.ts';
import { createContact } from '../../../shared/contact/contact.ts';

/** POST /api/orgs/{org_id}/contacts `{ phone, name?, label_ids?, custom_properties?, notes? }` -> 201 `{ contact }`; 409 when the number has one. */
export const handler = httpHandler({ params: OrgParams, body: CreateContactInput }, async ({ actor, body }) => ({ status: 201, body: { contact: await createContact(actor, body) } }));
