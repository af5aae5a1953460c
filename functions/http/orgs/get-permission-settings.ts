import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { getPermissionSettings } from '../../../shared/org/org-settings.ts';

/** GET /api/orgs/{org_id}/settings/permissions -> `{ mask_phone_numbers, member_permissions }` (any member; spec §6). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: await getPermissionSettings(actor) }));
