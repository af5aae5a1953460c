import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { UpdateLibrarySettingsInput } from '../../../shared/org/org-settings.schemas.ts';
import { updateLibrarySettings } from '../../../shared/org/org-settings.ts';

/** PUT /api/orgs/{org_id}/settings/library (admins; members 403 settings.forbidden; bad input 400 with the field) -> the library settings. */
export const handler = httpHandler({ params: OrgParams, body: UpdateLibrarySettingsInput }, async ({ actor, body }) => {
  const settings = await updateLibrarySettings(actor, body);
  return { body: settings };
});
