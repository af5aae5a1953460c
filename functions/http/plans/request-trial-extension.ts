import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { TrialExtensionInput } from '../../../shared/plan/plan.schemas.ts';
import { requestTrialExtension } from '../../../shared/plan/plan.ts';

/** POST /api/orgs/{org_id}/plan/trial-extension `{ shared_post_link }` -> 201 `{ trial_extension_requested_at }`; 409 when already requested or not trialing. */
export const handler = httpHandler({ params: OrgParams, body: TrialExtensionInput }, async ({ actor, body }) => ({ status: 201, body: await requestTrialExtension(actor, body) }));
