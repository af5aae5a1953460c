import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { getSlack } from '../../../shared/webhooks/webhooks.ts';

/** GET /api/orgs/{org_id}/integrations/slack -> `{ slack }` (null when not set; admins). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { slack: await getSlack(actor) } }));
