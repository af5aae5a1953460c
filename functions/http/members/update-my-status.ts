import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { UpdateStatusInput } from '../../../shared/user/preferences.schemas.ts';
import { setMyOnlineStatus } from '../../../shared/member/status.ts';

/** PUT /api/orgs/{org_id}/me/status `{ is_online }` -> `{ is_online }`; 404 for an org the user is not in. */
export const handler = httpHandler({ params: OrgParams, body: UpdateStatusInput }, async ({ actor, body }) => ({
  body: await setMyOnlineStatus(actor, body.is_online),
}));
