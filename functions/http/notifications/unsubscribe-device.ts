import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { UnsubscribeInput } from '../../../shared/push/push.schemas.ts';
import { unsubscribeDevice } from '../../../shared/push/push.ts';

/** POST /api/orgs/{org_id}/notifications/unsubscribe `{ email, device_id, device_type }` (spec §7) -> `{ removed }`. */
export const handler = httpHandler({ params: OrgParams, body: UnsubscribeInput }, async ({ actor, body }) => ({ body: { removed: await unsubscribeDevice(actor, body) } }));
