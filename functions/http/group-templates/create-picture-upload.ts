import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { GroupPictureUploadInput } from '../../../shared/group-template/group-template.schemas.ts';
import { createPictureUpload } from '../../../shared/group-template/group-template.ts';

/** POST /api/orgs/{org_id}/group-templates/uploads `{ filename, mimetype (JPEG/PNG), size (≤ 5 MB) }` -> 201 `{ upload_url, upload_key, headers, expires_at }` (admins). */
export const handler = httpHandler({ params: OrgParams, body: GroupPictureUploadInput }, async ({ actor, body }) => ({ status: 201, body: await createPictureUpload(actor, body) }));
