import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { createFaqUpload, FaqUploadInput } from '../../../shared/ai/assets.ts';

/**
 * POST /api/orgs/{org_id}/ai/faqs/uploads `{ filename, mimetype, size, faq_id? }` -> 201
 * `{ faq_id, upload_url, key, headers, expires_at, attachment }`: a presigned PUT for a FAQ pair's
 * file under `{org_id}/ai_assets/{context_id}/` (spec §7); 400 audio / type / size (spec §5);
 * 403 for members; 502 'Unable to upload file' (spec §8).
 */
export const handler = httpHandler({ params: OrgParams, body: FaqUploadInput }, async ({ actor, body }) => ({ status: 201, body: await createFaqUpload(actor, body) }));
