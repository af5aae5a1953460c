import { httpHandler } from '../../lib/http.ts';
import { ApiKeyParams } from './params.ts';
import { revokeApiKey } from '../../../shared/apikey/api-key.ts';

/** DELETE /api/orgs/{org_id}/api-keys/{key_id} -> `{ api_key }` with `revoked_at` (idempotent; admins only; 404 for another org's key). */
export const handler = httpHandler({ params: ApiKeyParams }, async ({ actor, params }) => ({ body: { api_key: await revokeApiKey(actor, params.key_id) } }));
