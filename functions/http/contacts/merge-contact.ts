import { httpHandler } from '../../lib/http.ts';
import { ContactParams } from './params.ts';
import { MergeContactInput } from '../../../shared/contact/contact.schemas.ts';
import { mergeContacts } from '../../../shared/contact/merge.ts';

/** POST /api/orgs/{org_id}/contacts/{contact_id}/merge `{ other_contact_id }` -> `{ contact }` (the survivor). */
export const handler = httpHandler({ params: ContactParams, body: MergeContactInput }, async ({ actor, params, body }) => ({ body: { contact: await mergeContacts(actor, params.contact_id, body.other_contact_id) } }));
