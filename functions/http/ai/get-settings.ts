import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { getAiSettings } from '../../../shared/ai/faq.ts';

/** GET /api/orgs/{org_id}/ai/settings -> `{ settings }` (defaults when never saved). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { settings: await getAiSettings(actor.org_id) } }));
