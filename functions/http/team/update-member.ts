import { httpHandler } from '../../lib/http.ts';
import { TeamMemberParams } from './params.ts';
import { UpdateMemberInput } from '../../../shared/member/team.schemas.ts';
import { changeMemberRole } from '../../../shared/member/team.ts';

/** PATCH /api/orgs/{org_id}/team/{email} `{ role }` -> `{ member }`; 403 for members, 400 team.last_admin. */
export const handler = httpHandler({ params: TeamMemberParams, body: UpdateMemberInput }, async ({ actor, params, body }) => {
  const member = await changeMemberRole(actor, params.email, body.role);
  return { body: { member } };
});
