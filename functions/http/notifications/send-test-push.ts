import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { TestPushInput } from '../../../shared/push/push.schemas.ts';
import { sendTestPush } from '../../../shared/push/push.ts';

/** POST /api/orgs/{org_id}/notifications/test `{ device_id }` -> `{ sent, removed }`; 404 device.not_found for a device the caller has not registered here. */
export const handler = httpHandler({ params: OrgParams, body: TestPushInput }, async ({ actor, body }) => ({ body: await sendTestPush(actor, body.device_id) }));
