import { httpHandler } from '../../lib/http.ts';
import { config } from '../../../shared/config.ts';
import { OrgParams } from '../chats/params.ts';
import { InviteMemberInput } from '../../../shared/member/team.schemas.ts';
import { inviteMember } from '../../../shared/member/team.ts';

/**
 * POST /api/orgs/{org_id}/team/invites `{ email, role? }` -> 201 `{ member }`, and the invitation
 * email with a link to `{APP_URL or the request's Origin}/login`; 403 for members, 409 when already a
 * member or invited, 502 when the email could not be sent.
 */
export const handler = httpHandler({ params: OrgParams, body: InviteMemberInput }, async ({ actor, body, event }) => ({
  status: 201,
  body: { member: await inviteMember(actor, body, config().APP_URL || event.headers.origin || '') },
}));
