import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListMediaQuery } from '../../../shared/media/media.schemas.ts';
import { listMedia } from '../../../shared/media/media-library.ts';

/**
 * GET /api/orgs/{org_id}/media?type&chat_id&from&to&limit&cursor -> `{ items, cursor }`: the org's
 * stored files newest first, each with 5-minute `url` and `thumbnail_url`.
 */
export const handler = httpHandler({ params: OrgParams, query: ListMediaQuery }, async ({ actor, query }) => ({ body: await listMedia(actor, query) }));
