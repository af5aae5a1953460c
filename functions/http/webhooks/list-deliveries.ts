import { httpHandler } from '../../lib/http.ts';
import { EndpointParams } from './params.ts';
import { DeliveriesQuery } from '../../../shared/webhooks/webhook.schemas.ts';
import { listDeliveries } from '../../../shared/webhooks/webhooks.ts';

/** GET /api/orgs/{org_id}/webhooks/{endpoint_id}/deliveries?limit&cursor -> `{ deliveries, cursor }` newest first (admins). */
export const handler = httpHandler({ params: EndpointParams, query: DeliveriesQuery }, async ({ actor, params, query }) => ({ body: await listDeliveries(actor, params.endpoint_id, query) }));
