import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { CreateEndpointInput } from '../../../shared/webhooks/webhook.schemas.ts';
import { createEndpoint } from '../../../shared/webhooks/webhooks.ts';

/** POST /api/orgs/{org_id}/webhooks `{ url, description?, events }` -> 201 `{ endpoint }` (with its `whsec_` secret; admins). */
export const handler = httpHandler({ params: OrgParams, body: CreateEndpointInput }, async ({ actor, body }) => ({ status: 201, body: { endpoint: await createEndpoint(actor, body) } }));
