import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { vapidKeys } from '../../../shared/push/vapid.ts';

/** GET /api/orgs/{org_id}/notifications/vapid-public-key -> `{ public_key }` (the browser's applicationServerKey, base64url). Members of the org only. */
export const handler = httpHandler({ params: OrgParams }, async () => ({ body: { public_key: (await vapidKeys()).publicKey } }));
