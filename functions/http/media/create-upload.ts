import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { CreateUploadInput } from '../../../shared/media/media.schemas.ts';
import { createUpload } from '../../../shared/media/outbound.ts';

/**
 * POST /api/orgs/{org_id}/chats/{chat_id}/uploads `{ filename, mimetype, size }` ->
 * 201 `{ upload_url, key, headers, expires_at }` (a presigned PUT; type and size checked against Meta's send limits).
 */
export const handler = httpHandler({ params: ChatParams, body: CreateUploadInput }, async ({ actor, params, body }) => ({
  status: 201,
  body: await createUpload(actor, params.chat_id, body),
}));
