import { httpHandler } from '../../lib/http.ts';
import { RuleParams } from './params.ts';
import { getRule } from '../../../shared/rules/rules.ts';

/** GET /api/orgs/{org_id}/rules/{rule_id} -> `{ rule, versions }` (version history, newest first). */
export const handler = httpHandler({ params: RuleParams }, async ({ actor, params }) => ({ body: await getRule(actor, params.rule_id) }));
