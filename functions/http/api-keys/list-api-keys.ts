import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ApiKeysPageQuery } from './params.ts';
import { listApiKeys } from '../../../shared/apikey/api-key.ts';

/** GET /api/orgs/{org_id}/api-keys?cursor -> `{ api_keys, cursor }` (admins; 403 for members). */
export const handler = httpHandler({ params: OrgParams, query: ApiKeysPageQuery }, async ({ actor, query }) => ({ body: await listApiKeys(actor, query.cursor) }));
