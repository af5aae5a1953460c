import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { listRules, rulesPerLicence } from '../../../shared/rules/rules.ts';

/** GET /api/orgs/{org_id}/rules -> `{ rules, per_licence }` (admins, or members when member_permissions.rules allows). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { rules: await listRules(actor), per_licence: rulesPerLicence() } }));
