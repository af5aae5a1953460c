import { httpHandler } from '../../lib/http.ts';
import { PropertyParams } from './params.ts';
import { deleteProperty } from '../../../shared/property/property.ts';

/** DELETE /api/orgs/{org_id}/properties/{property_id} -> `{ deleted: true }` (admins). */
export const handler = httpHandler({ params: PropertyParams }, async ({ actor, params }) => ({ body: await deleteProperty(actor, params.property_id) }));
