import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { eventCatalogue } from '../../../shared/webhooks/webhooks.ts';

/** GET /api/orgs/{org_id}/webhooks/events -> `{ events: [{ type, sample }], slack_events }` (admins). */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: eventCatalogue(actor) }));
