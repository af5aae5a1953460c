import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { ListRuleLogsQuery } from '../../../shared/rules/rule.schemas.ts';
import { listRuleLogs } from '../../../shared/rules/rules.ts';

/** GET /api/orgs/{org_id}/logs/rules `?rule_id&chat_id&outcome&limit&cursor` -> `{ logs, cursor }` (newest first; 90-day TTL). */
export const handler = httpHandler({ params: OrgParams, query: ListRuleLogsQuery }, async ({ guard, query }) => ({ body: await listRuleLogs(guard, query) }));
