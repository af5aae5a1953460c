import { httpHandler } from '../../lib/http.ts';
import { getMe } from '../../../shared/member/member.ts';

/** GET /api/me: the signed-in user, their orgs, role and phones. */
export const handler = httpHandler({}, async ({ claims }) => ({ body: await getMe(claims) }));
