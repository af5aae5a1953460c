import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListBroadcastsQuery } from '../../../shared/broadcast/broadcast.schemas.ts';
import { listBroadcasts } from '../../../shared/broadcast/broadcast.ts';

/** GET /api/orgs/{org_id}/broadcasts?limit&cursor -> `{ broadcasts, cursor }` newest first. 403 broadcast.forbidden. */
export const handler = httpHandler({ params: OrgParams, query: ListBroadcastsQuery }, async ({ actor, query }) => ({ body: await listBroadcasts(actor, query) }));
