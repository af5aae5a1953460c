import { apiHandler } from '../../lib/api-key.ts';
import { V1 } from './contract.ts';
import { restHookSamples, subscribeRestHook, unsubscribeRestHook } from '../../../shared/webhooks/webhooks.ts';

/**
 * Public API: REST hooks for Zapier and Pabbly (issue 20 item 5). Same domain functions as the
 * admin routes `/api/orgs/{org_id}/hooks…` (shared/webhooks/webhooks.ts); the API key acts as an
 * org-level admin actor, and its `webhooks:*` scope gates these routes. Target URLs pass the SSRF
 * guard (https, no private addresses) inside `subscribeRestHook`.
 */

/** POST /v1/orgs/{org_id}/hooks `{ target_url, event, source }` -> 201 `{ id, … }` */
export const subscribeHook = apiHandler(V1.subscribeHook, async ({ actor, body }) => ({ status: 201, body: await subscribeRestHook(actor, body) }));

/** DELETE /v1/orgs/{org_id}/hooks/{endpoint_id} -> `{ deleted }` (404 for an endpoint that is not a REST hook) */
export const unsubscribeHook = apiHandler(V1.unsubscribeHook, async ({ actor, params }) => {
  await unsubscribeRestHook(actor, params.endpoint_id);
  return { body: { deleted: params.endpoint_id } };
});

/** GET /v1/orgs/{org_id}/hooks/samples/{event} -> `[payload]` */
export const hookSamples = apiHandler(V1.hookSamples, async ({ actor, params }) => ({ body: restHookSamples(actor, params.event) }));
