import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { readDashboard } from '../../../shared/analytics/dashboard.ts';

/** GET /api/orgs/{org_id}/dashboard -> Dashboard (shared/analytics/dashboard.ts): today at a glance, phones and their health; platform orgs also queues. Any member. */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: await readDashboard(actor) }));
