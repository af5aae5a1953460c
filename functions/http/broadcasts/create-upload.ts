import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateBroadcastUploadInput } from '../../../shared/broadcast/broadcast.schemas.ts';
import { assertBroadcastAccess } from '../../../shared/broadcast/broadcast.ts';
import { createBroadcastUpload } from '../../../shared/broadcast/broadcast-upload.ts';

/**
 * POST /api/orgs/{org_id}/broadcasts/uploads `{ filename, mimetype, size }` -> 201
 * `{ upload_id, upload_url, headers, filename, message_type, size, expires_at }` (a presigned PUT; type and
 * size checked against Meta's send limits). 403 broadcast.forbidden without member_permissions.bulk_message.
 */
export const handler = httpHandler({ params: OrgParams, body: CreateBroadcastUploadInput }, async ({ actor, body }) => ({
  status: 201,
  body: await createBroadcastUpload(actor, body, assertBroadcastAccess),
}));
