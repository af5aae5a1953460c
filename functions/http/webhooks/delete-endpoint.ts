import { httpHandler } from '../../lib/http.ts';
import { EndpointParams } from './params.ts';
import { deleteEndpoint } from '../../../shared/webhooks/webhooks.ts';

/** DELETE /api/orgs/{org_id}/webhooks/{endpoint_id} -> `{ deleted }` (admins). */
export const handler = httpHandler({ params: EndpointParams }, async ({ actor, params }) => {
  await deleteEndpoint(actor, params.endpoint_id);
  return { body: { deleted: params.endpoint_id } };
});
