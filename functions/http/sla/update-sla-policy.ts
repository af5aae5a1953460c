import { httpHandler } from '../../lib/http.ts';
import { SlaPolicyParams, UpdateSlaPolicyInput } from '../../../shared/sla/sla.schemas.ts';
import { updateSlaPolicy } from '../../../shared/sla/sla.ts';

/** PUT /api/orgs/{org_id}/sla-policies/{policy_id} (any field of the policy) -> `{ policy }`. */
export const handler = httpHandler({ params: SlaPolicyParams, body: UpdateSlaPolicyInput }, async ({ actor, params, body }) => ({ body: { policy: await updateSlaPolicy(actor, params.policy_id, body) } }));
