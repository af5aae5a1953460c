import { httpHandler } from '../../lib/http.ts';
import { passwordStatus } from '../../../shared/user/password.ts';

/** GET /api/me/password -> `{ set_without_current, until }` (shared/user/password.ts): may the dialog leave out the current password. */
export const handler = httpHandler({}, async ({ claims }) => ({ body: await passwordStatus(claims, Date.now()) }));
