import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { SearchQuery } from '../../../shared/search-api/search.schemas.ts';
import { search } from '../../../shared/search/search.ts';

/** GET /api/orgs/{org_id}/search?q&kind&phone_id&label_id&sender&message_type&from&to&limit&cursor -> `{ results: { [kind]: { items, cursor } } }` (issue 14). */
export const handler = httpHandler({ params: OrgParams, query: SearchQuery }, async ({ actor, query }) => ({ body: await search(actor, query) }));
