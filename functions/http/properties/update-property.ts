import { httpHandler } from '../../lib/http.ts';
import { PropertyParams } from './params.ts';
import { PropertyInput } from '../../../shared/property/property.schemas.ts';
import { updateProperty } from '../../../shared/property/property.ts';

/** PATCH /api/orgs/{org_id}/properties/{property_id} `{ property_name, property_value_type, options? }` -> `{ property }` (admins). */
export const handler = httpHandler({ params: PropertyParams, body: PropertyInput }, async ({ actor, params, body }) => ({ body: { property: await updateProperty(actor, params.property_id, body) } }));
