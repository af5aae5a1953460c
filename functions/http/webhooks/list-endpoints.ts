import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { listEndpoints } from '../../../shared/webhooks/webhooks.ts';

/** GET /api/orgs/{org_id}/webhooks -> `{ endpoints }` (every kind; admins). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { endpoints: await listEndpoints(actor) } }));
