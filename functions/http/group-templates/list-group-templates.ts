import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { listGroupTemplates } from '../../../shared/group-template/group-template.ts';

/** GET /api/orgs/{org_id}/group-templates -> `{ group_templates: GroupTemplate[] }` (any member; picture URLs valid 1 h). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { group_templates: await listGroupTemplates(actor) } }));
