import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CheckoutInput } from '../../../shared/plan/plan.schemas.ts';
import { startCheckout } from '../../../shared/plan/plan.ts';

/** POST /api/orgs/{org_id}/plan/checkout `{ plan_id, frequency, currency, licences, addon_phones? }` -> `{ url }` (hosted checkout); 403 for members. */
export const handler = httpHandler({ params: OrgParams, body: CheckoutInput }, async ({ actor, body }) => ({ body: await startCheckout(actor, body) }));
