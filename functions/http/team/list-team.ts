import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { listTeam } from '../../../shared/member/team.ts';

/** GET /api/orgs/{org_id}/team -> `{ members: TeamMember[] }` (active and invited); 403 for members. */
export const handler = httpHandler({ params: OrgParams }, async ({ actor }) => ({ body: { members: await listTeam(actor) } }));
