import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { CreateApiKeyInput } from '../../../shared/apikey/api-key.schemas.ts';
import { createApiKey } from '../../../shared/apikey/api-key.ts';

/** POST /api/orgs/{org_id}/api-keys `{ name, scopes, rate_limit? }` -> 201 `{ api_key, token }` (the token is shown this once; admins only). */
export const handler = httpHandler({ params: OrgParams, body: CreateApiKeyInput }, async ({ actor, body }) => ({ status: 201, body: await createApiKey(actor, body) }));
