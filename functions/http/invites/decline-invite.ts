import { httpHandler } from '../../lib/http.ts';
import { InviteParams } from '../team/params.ts';
import { declineInvite } from '../../../shared/member/team.ts';

/** POST /api/invites/{invite_org_id}/decline -> `{ declined: org_id }`; 404 without a pending invite. */
export const handler = httpHandler({ params: InviteParams }, async ({ claims, params }) => {
  await declineInvite(claims, params.invite_org_id);
  return { body: { declined: params.invite_org_id } };
});
