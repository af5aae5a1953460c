import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { UpdateGeneralSettingsInput } from '../../../shared/org/org-settings.schemas.ts';
import { updateGeneralSettings } from '../../../shared/org/org-settings.ts';
import { recordAdminAction } from '../../../shared/audit/audit.ts';

/** PUT /api/orgs/{org_id}/settings/general (admins; members 403 settings.forbidden; bad input 400 with the field) -> the general settings. */
export const handler = httpHandler({ params: OrgParams, body: UpdateGeneralSettingsInput }, async ({ actor, body }) => {
  const settings = await updateGeneralSettings(actor, body);
  await recordAdminAction(actor, 'settings', 'settings.general_changed', 'general', body as Record<string, unknown>);
  return { body: settings };
});
