import { httpHandler } from '../../lib/http.ts';
import { UpdatePreferencesInput } from '../../../shared/user/preferences.schemas.ts';
import { updateUserPreferences } from '../../../shared/user/preferences.ts';

/** PUT /api/me/preferences `{ notifications?, left_sidebar_open? }` -> `{ preferences }`; 400 on unknown keys or non-booleans. */
export const handler = httpHandler({ body: UpdatePreferencesInput }, async ({ claims, body }) => ({
  body: { preferences: await updateUserPreferences(claims.email, body) },
}));
