import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../../../shared/rules/rule.schemas.ts';
import { ListSlaBreachesQuery } from '../../../shared/sla/sla.schemas.ts';
import { listSlaBreaches } from '../../../shared/sla/sla.ts';

/** GET /api/orgs/{org_id}/logs/sla `?policy_id&target&limit&cursor` -> `{ breaches, cursor }` (the SLA breach report, newest first; 90-day TTL). */
export const handler = httpHandler({ params: OrgParams, query: ListSlaBreachesQuery }, async ({ guard, query }) => ({ body: await listSlaBreaches(guard, query) }));
