import { httpHandler } from '../../lib/http.ts';
import { RuleParams } from './params.ts';
import { UpdateRuleInput } from '../../../shared/rules/rule.schemas.ts';
import { updateRule } from '../../../shared/rules/rules.ts';

/** PUT /api/orgs/{org_id}/rules/{rule_id} `{ name?, trigger?, conditions?, actions?, enabled? }` -> `{ rule }` (a new version). */
export const handler = httpHandler({ params: RuleParams, body: UpdateRuleInput }, async ({ actor, params, body }) => ({ body: { rule: await updateRule(actor, params.rule_id, body) } }));
