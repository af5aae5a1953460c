import { httpHandler } from '../../lib/http.ts';
import { EndpointParams } from './params.ts';
import { sendTestEvent } from '../../../shared/webhooks/webhooks.ts';

/** POST /api/orgs/{org_id}/webhooks/{endpoint_id}/test -> 202 `{ delivery }` (a `webhook.test` event; admins). */
export const handler = httpHandler({ params: EndpointParams }, async ({ actor, params }) => ({ status: 202, body: { delivery: await sendTestEvent(actor, params.endpoint_id) } }));
