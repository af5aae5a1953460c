import { httpHandler } from '../../lib/http.ts';
import { PropertyParams } from './params.ts';
import { deletePropertyAndValues } from '../../../shared/property/property-jobs.ts';

/** DELETE /api/orgs/{org_id}/properties/{property_id} -> `{ deleted: true, job }` (admins): `job` is the background bulk job clearing the property's values on every chat (issue 15 item 4). */
export const handler = httpHandler({ params: PropertyParams }, async ({ actor, params }) => ({ body: await deletePropertyAndValues(actor, params.property_id) }));
