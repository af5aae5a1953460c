import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { RuleInput } from '../../../shared/rules/rule.schemas.ts';
import { createRule } from '../../../shared/rules/rules.ts';

/** POST /api/orgs/{org_id}/rules `{ name, trigger, conditions?, actions, enabled? }` -> 201 `{ rule }`; 409 rules.limit past the plan's count. */
export const handler = httpHandler({ params: OrgParams, body: RuleInput }, async ({ actor, body }) => ({ status: 201, body: { rule: await createRule(actor, body) } }));
