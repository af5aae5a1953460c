import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../../../shared/rules/rule.schemas.ts';
import { SlaPolicyInput } from '../../../shared/sla/sla.schemas.ts';
import { createSlaPolicy } from '../../../shared/sla/sla.ts';

/** POST /api/orgs/{org_id}/sla-policies `{ name, scope, targets, business_hours, near_breach_percent, near_breach_actions, breach_actions, enabled }` -> 201 `{ policy }`. */
export const handler = httpHandler({ params: OrgParams, body: SlaPolicyInput }, async ({ actor, body }) => ({ status: 201, body: { policy: await createSlaPolicy(actor, body) } }));
