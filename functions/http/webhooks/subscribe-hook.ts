import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { RestHookInput } from '../../../shared/webhooks/webhook.schemas.ts';
import { subscribeRestHook } from '../../../shared/webhooks/webhooks.ts';

/** POST /api/orgs/{org_id}/hooks `{ target_url, event, source: zapier|pabbly }` -> 201 `{ id, … }` (REST hook subscribe; admins). */
export const handler = httpHandler({ params: OrgParams, body: RestHookInput }, async ({ actor, body }) => ({ status: 201, body: await subscribeRestHook(actor, body) }));
