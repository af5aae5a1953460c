import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { getPlanView } from '../../../shared/plan/plan.ts';

/** GET /api/orgs/{org_id}/plan -> the plan, status, limits, usage (shared/plan/plan.schemas.ts PlanView); invoices for admins only. */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: await getPlanView(actor) }));
