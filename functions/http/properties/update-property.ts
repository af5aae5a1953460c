import { httpHandler } from '../../lib/http.ts';
import { PropertyParams } from './params.ts';
import { PropertyInput } from '../../../shared/property/property.schemas.ts';
import { updatePropertyAndValues } from '../../../shared/property/property-jobs.ts';

/** PATCH /api/orgs/{org_id}/properties/{property_id} `{ property_name, property_value_type, options? }` -> `{ property, jobs }` (admins): `jobs` clear the values of removed dropdown options in the background (issue 15 item 4). */
export const handler = httpHandler({ params: PropertyParams, body: PropertyInput }, async ({ actor, params, body }) => ({ body: await updatePropertyAndValues(actor, params.property_id, body) }));
