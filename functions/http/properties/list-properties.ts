import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { listProperties } from '../../../shared/property/property.ts';

/** GET /api/orgs/{org_id}/properties -> `{ properties: [{ property_id, property_name, property_value_type, property_value }] }` (any member). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { properties: await listProperties(actor.org_id) } }));
