import { httpHandler } from '../../lib/http.ts';
import { EndpointParams } from './params.ts';
import { UpdateEndpointInput } from '../../../shared/webhooks/webhook.schemas.ts';
import { updateEndpoint } from '../../../shared/webhooks/webhooks.ts';

/** PATCH /api/orgs/{org_id}/webhooks/{endpoint_id} `{ url?, description?, events?, enabled? }` -> `{ endpoint }` (admins). */
export const handler = httpHandler({ params: EndpointParams, body: UpdateEndpointInput }, async ({ actor, params, body }) => ({ body: { endpoint: await updateEndpoint(actor, params.endpoint_id, body) } }));
