import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { listMembers } from '../../../shared/member/member.ts';

/** GET /api/orgs/{org_id}/members -> `{ members: [{ email, member_name, role, is_online }] }`. */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { members: await listMembers(actor) } }));
