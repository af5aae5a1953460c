import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { InviteMemberInput } from '../../../shared/member/team.schemas.ts';
import { inviteMember } from '../../../shared/member/team.ts';

/**
 * POST /api/orgs/{org_id}/team/invites `{ email, role? }` -> 201 `{ member }`, and the invitation
 * email with a link to `{APP_URL}/login` (configuration only: request headers such as Origin are
 * never used for it); 403 for members, 409 when already a member or invited, 502 when the email
 * could not be sent.
 */
export const handler = httpHandler({ params: OrgParams, body: InviteMemberInput }, async ({ actor, body }) => {
  const member = await inviteMember(actor, body);
  return { status: 201, body: { member } };
});
