import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { UpdateGeneralSettingsInput } from '../../../shared/org/org-settings.schemas.ts';
import { changeGeneralSettings } from '../../../shared/org/org-settings.ts';

/** PUT /api/orgs/{org_id}/settings/general (admins; members 403 settings.forbidden; bad input 400 with the field) -> the general settings. */
export const handler = httpHandler({ params: OrgParams, body: UpdateGeneralSettingsInput }, async ({ actor, body }) => {
  const { settings, before_org_name } = await changeGeneralSettings(actor, body);
  return { body: settings, audit: { details: { before_org_name } } };
});
