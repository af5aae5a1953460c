import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { ListTemplatesQuery } from '../../../shared/template/template.schemas.ts';
import { listTemplatesFor } from '../../../shared/template/template.ts';

/** GET /api/orgs/{org_id}/templates?phone_id&status&cursor&limit -> 200 `{ phone_id, templates, cursor }` (any member; 404 for another org's phone). */
export const handler = httpHandler({ params: OrgParams, query: ListTemplatesQuery }, async ({ actor, query }) => ({ body: await listTemplatesFor(actor, query) }));
