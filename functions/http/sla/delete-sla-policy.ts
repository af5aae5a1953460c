import { httpHandler } from '../../lib/http.ts';
import { SlaPolicyParams } from '../../../shared/sla/sla.schemas.ts';
import { deleteSlaPolicy } from '../../../shared/sla/sla.ts';

/** DELETE /api/orgs/{org_id}/sla-policies/{policy_id} -> `{ deleted: true }`. Running clocks under it fire as moot. */
export const handler = httpHandler({ params: SlaPolicyParams }, async ({ actor, params }) => {
  await deleteSlaPolicy(actor, params.policy_id);
  return { body: { deleted: true } };
});
