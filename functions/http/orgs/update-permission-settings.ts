import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { UpdatePermissionSettingsInput } from '../../../shared/org/org.schemas.ts';
import { updatePermissionSettings } from '../../../shared/org/org-settings.ts';

/** PUT /api/orgs/{org_id}/settings/permissions `{ mask_phone_numbers?, member_permissions? }` -> the settings; 403 for members. */
export const handler = httpHandler({ params: OrgParams, body: UpdatePermissionSettingsInput }, async ({ actor, body }) => {
  const settings = await updatePermissionSettings(actor, body);
  return { body: settings };
});
