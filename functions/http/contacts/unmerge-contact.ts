import { httpHandler } from '../../lib/http.ts';
import { ContactParams } from './params.ts';
import { MergeContactInput } from '../../../shared/contact/contact.schemas.ts';
import { unmergeContacts } from '../../../shared/contact/merge.ts';

/** POST /api/orgs/{org_id}/contacts/{contact_id}/unmerge `{ other_contact_id }` -> `{ contact, restored }`. */
export const handler = httpHandler({ params: ContactParams, body: MergeContactInput }, async ({ actor, params, body }) => ({ body: await unmergeContacts(actor, params.contact_id, body.other_contact_id) }));
