import { httpHandler } from '../../lib/http.ts';
import { DeliveryParams } from './params.ts';
import { replayDelivery } from '../../../shared/webhooks/webhooks.ts';

/** POST /api/orgs/{org_id}/webhooks/{endpoint_id}/deliveries/{delivery_id}/replay -> 202 `{ delivery }` (admins). */
export const handler = httpHandler({ params: DeliveryParams }, async ({ actor, params }) => ({ status: 202, body: { delivery: await replayDelivery(actor, params.endpoint_id, params.delivery_id) } }));
