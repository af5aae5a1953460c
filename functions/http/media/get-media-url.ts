import { z } from 'zod';
import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from '../chats/params.ts';
import { mediaUrl } from '../../../shared/media/media.ts';

const Params = ChatParams.extend({ unique_id: z.string().min(1, 'is required').max(100, 'is too long') });

/**
 * GET /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/media ->
 * `{ url, thumbnail_url, mimetype, filename, size, status, error, expires_at }` (URLs live 5 minutes).
 */
export const handler = httpHandler({ params: Params }, async ({ actor, params }) => ({
  body: await mediaUrl(actor, params.chat_id, params.unique_id),
}));
