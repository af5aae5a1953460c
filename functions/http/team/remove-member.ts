import { httpHandler } from '../../lib/http.ts';
import { TeamMemberParams } from './params.ts';
import { removeMember } from '../../../shared/member/team.ts';
import { recordAdminAction } from '../../../shared/audit/audit.ts';

/** DELETE /api/orgs/{org_id}/team/{email} -> `{ removed: email }`; 403 for members, 400 team.remove_self / team.last_admin. */
export const handler = httpHandler({ params: TeamMemberParams }, async ({ actor, params }) => {
  await removeMember(actor, params.email);
  await recordAdminAction(actor, 'team', 'team.removed', params.email); // issue 19: audit log
  return { body: { removed: params.email } };
});
