import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { getLibrarySettings } from '../../../shared/org/org-settings.ts';

/** GET /api/orgs/{org_id}/settings/library -> the library settings (any member reads; spec §2, issue 22; shapes in shared/org/org-settings.schemas.ts). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: await getLibrarySettings(actor) }));
