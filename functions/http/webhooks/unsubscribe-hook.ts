import { httpHandler } from '../../lib/http.ts';
import { EndpointParams } from './params.ts';
import { unsubscribeRestHook } from '../../../shared/webhooks/webhooks.ts';

/** DELETE /api/orgs/{org_id}/hooks/{endpoint_id} -> `{ deleted }` (Zapier / Pabbly endpoints only; admins). */
export const handler = httpHandler({ params: EndpointParams }, async ({ actor, params }) => {
  await unsubscribeRestHook(actor, params.endpoint_id);
  return { body: { deleted: params.endpoint_id } };
});
