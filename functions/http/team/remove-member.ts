import { httpHandler } from '../../lib/http.ts';
import { TeamMemberParams } from './params.ts';
import { removeMember } from '../../../shared/member/team.ts';

/** DELETE /api/orgs/{org_id}/team/{email} -> `{ removed: email }`; 403 for members, 400 team.remove_self / team.last_admin. */
export const handler = httpHandler({ params: TeamMemberParams }, async ({ actor, params }) => {
  await removeMember(actor, params.email);
  return { body: { removed: params.email } };
});
