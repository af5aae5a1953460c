import { httpHandler } from '../../lib/http.ts';
import { SampleParams } from './params.ts';
import { restHookSamples } from '../../../shared/webhooks/webhooks.ts';

/** GET /api/orgs/{org_id}/hooks/samples/{event} -> `[payload]` (the trigger's sample, Zapier's performList shape; admins). */
export const handler = httpHandler({ params: SampleParams }, async ({ actor, params }) => ({ body: restHookSamples(actor, params.event) }));
