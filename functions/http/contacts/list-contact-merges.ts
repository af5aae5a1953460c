import { httpHandler } from '../../lib/http.ts';
import { ContactParams } from './params.ts';
import { contactMerges } from '../../../shared/contact/merge.ts';

/** GET /api/orgs/{org_id}/contacts/{contact_id}/merges -> `{ merged: ContactView[], audit: [{ audit_id, action, actor, other_contact_id, at }] }`. */
export const handler = httpHandler({ params: ContactParams }, async ({ actor, params }) => ({ body: await contactMerges(actor, params.contact_id) }));
