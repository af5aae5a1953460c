import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { UnsubscribeAllInput } from '../../../shared/push/push.schemas.ts';
import { unsubscribeAllForDevice } from '../../../shared/push/push.ts';

/** POST /api/orgs/{org_id}/notifications/unsubscribe-all-for-device `{ device_id }` (spec §7; sign-out, spec §4) -> `{ removed }`. */
export const handler = httpHandler({ params: OrgParams, body: UnsubscribeAllInput }, async ({ actor, body }) => ({ body: { removed: await unsubscribeAllForDevice(actor, body.device_id) } }));
