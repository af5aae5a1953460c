import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ApiKeysPageQuery } from './params.ts';
import { listApiRequestLogs } from '../../../shared/apikey/api-key.ts';

/** GET /api/orgs/{org_id}/api-keys/logs?cursor -> `{ logs, cursor }`: public API requests, newest first, 90 days (admins only). */
export const handler = httpHandler({ params: OrgParams, query: ApiKeysPageQuery }, async ({ actor, query }) => ({ body: await listApiRequestLogs(actor, query.cursor) }));
