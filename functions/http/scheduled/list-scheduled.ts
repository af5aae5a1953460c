import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListScheduledQuery } from '../../../shared/schedule/scheduled.schemas.ts';
import { listScheduled } from '../../../shared/schedule/scheduled.ts';

/** GET /api/orgs/{org_id}/scheduled?scope&cursor&limit -> 200 `{ scheduled, cursor, time_zone }` (members: their own; admins: all, or `scope=mine`). */
export const handler = httpHandler({ params: OrgParams, query: ListScheduledQuery }, async ({ actor, query }) => ({ body: await listScheduled(actor, query) }));
