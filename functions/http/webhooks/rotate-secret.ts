import { httpHandler } from '../../lib/http.ts';
import { EndpointParams } from './params.ts';
import { rotateSecret } from '../../../shared/webhooks/webhooks.ts';

/** POST /api/orgs/{org_id}/webhooks/{endpoint_id}/rotate-secret -> `{ endpoint }` (new secret; the old one signs too for 24 h; admins). */
export const handler = httpHandler({ params: EndpointParams }, async ({ actor, params }) => ({ body: { endpoint: await rotateSecret(actor, params.endpoint_id) } }));
