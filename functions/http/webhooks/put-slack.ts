import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from './params.ts';
import { SlackSettingsInput } from '../../../shared/webhooks/webhook.schemas.ts';
import { putSlack } from '../../../shared/webhooks/webhooks.ts';

/** PUT /api/orgs/{org_id}/integrations/slack `{ url, events, enabled? }` -> `{ slack }` (admins). */
export const handler = httpHandler({ params: OrgParams, body: SlackSettingsInput }, async ({ actor, body }) => ({ body: { slack: await putSlack(actor, body) } }));
