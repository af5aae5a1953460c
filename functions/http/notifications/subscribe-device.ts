import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { SubscribeInput } from '../../../shared/push/push.schemas.ts';
import { subscribeDevice } from '../../../shared/push/push.ts';

/** POST /api/orgs/{org_id}/notifications/subscribe `{ email, subscription, device_id, device_type }` (spec §7) -> 201 `{ device }`. */
export const handler = httpHandler({ params: OrgParams, body: SubscribeInput }, async ({ actor, body }) => ({ status: 201, body: { device: await subscribeDevice(actor, body) } }));
