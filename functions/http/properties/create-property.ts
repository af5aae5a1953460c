import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { PropertyInput } from '../../../shared/property/property.schemas.ts';
import { createProperty } from '../../../shared/property/property.ts';

/** POST /api/orgs/{org_id}/properties `{ property_name, property_value_type, options? }` -> 201 `{ property }` (admins). */
export const handler = httpHandler({ params: OrgParams, body: PropertyInput }, async ({ actor, body }) => ({ status: 201, body: { property: await createProperty(actor, body) } }));
