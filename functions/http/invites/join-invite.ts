import { httpHandler } from '../../lib/http.ts';
import { InviteParams } from '../team/params.ts';
import { JoinInviteInput } from '../../../shared/member/team.schemas.ts';
import { joinInvite } from '../../../shared/member/team.ts';

/** POST /api/invites/{invite_org_id}/join `{ member_name?, member_image? }` -> `{ org_id, org_name }`; 404 without a pending invite. */
export const handler = httpHandler({ params: InviteParams, body: JoinInviteInput }, async ({ claims, params, body }) => ({
  body: await joinInvite(claims, params.invite_org_id, body ?? {}),
}));
