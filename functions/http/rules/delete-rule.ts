import { httpHandler } from '../../lib/http.ts';
import { RuleParams } from './params.ts';
import { deleteRule } from '../../../shared/rules/rules.ts';

/** DELETE /api/orgs/{org_id}/rules/{rule_id} -> `{ deleted: true }`. */
export const handler = httpHandler({ params: RuleParams }, async ({ actor, params }) => {
  await deleteRule(actor, params.rule_id);
  return { body: { deleted: true } };
});
