import { httpHandler } from '../../lib/http.ts';
import { getUserPreferences } from '../../../shared/user/preferences.ts';

/** GET /api/me/preferences -> `{ preferences }` (spec §3; any signed-in user, their own). */
export const handler = httpHandler({}, async ({ claims }) => ({ body: { preferences: await getUserPreferences(claims.email) } }));
