import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../../../shared/rules/rule.schemas.ts';
import { listSlaPolicies } from '../../../shared/sla/sla.ts';

/** GET /api/orgs/{org_id}/sla-policies -> `{ policies }` (issue 17 §6; admins, or members when member_permissions.rules allows). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { policies: await listSlaPolicies(actor) } }));
