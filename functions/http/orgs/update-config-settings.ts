import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { UpdateConfigSettingsInput } from '../../../shared/org/org-settings.schemas.ts';
import { updateConfigSettings } from '../../../shared/org/org-settings.ts';

/** PUT /api/orgs/{org_id}/settings/config (admins; members 403 settings.forbidden; bad input 400 with the field) -> the config settings. */
export const handler = httpHandler({ params: OrgParams, body: UpdateConfigSettingsInput }, async ({ actor, body }) => {
  const settings = await updateConfigSettings(actor, body);
  return { body: settings };
});
