import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { getCreditUsage } from '../../../shared/broadcast/broadcast.ts';

/** GET /api/orgs/{org_id}/broadcasts/credits -> CreditUsage of this month (spec §9: 3,000 per licence). 403 broadcast.forbidden. */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: await getCreditUsage(actor) }));
