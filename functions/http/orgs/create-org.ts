import { httpHandler } from '../../lib/http.ts';
import { CreateOrgInput } from '../../../shared/org/org.schemas.ts';
import { createOrg } from '../../../shared/org/org.ts';

/**
 * POST /api/orgs `{ org_name, contact_name?, phone_number, referralSource, currency? }` -> 201 `{ org_id }`
 * (any signed-in user; spec §5). 400 with spec §5's messages as reasons; 403 org.free_trial_limit.
 */
export const handler = httpHandler({ body: CreateOrgInput }, async ({ claims, body }) => ({ status: 201, body: await createOrg(claims, body) }));
