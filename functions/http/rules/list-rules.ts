import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { listRules, orgRuleLimit } from '../../../shared/rules/rules.ts';
import { RULES_PER_LICENCE } from '../../../shared/plan/catalog.rules.ts';

/**
 * GET /api/orgs/{org_id}/rules -> `{ rules, per_licence, limit }` (admins, or members when
 * member_permissions.rules allows). `limit`: the plan's rule count (`ruleLimit`, spec §9; 0 on Starter).
 */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => {
  const rules = await listRules(actor);
  return { body: { rules, per_licence: RULES_PER_LICENCE, limit: await orgRuleLimit(actor.org_id) } };
});
