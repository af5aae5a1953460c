import { httpHandler } from '../../lib/http.ts';
import { OrgParams } from '../chats/params.ts';
import { InviteMemberInput } from '../../../shared/member/team.schemas.ts';
import { inviteMember } from '../../../shared/member/team.ts';

/** POST /api/orgs/{org_id}/team/invites `{ email, role? }` -> 201 `{ member }`; 403 for members, 409 when already a member or invited. */
export const handler = httpHandler({ params: OrgParams, body: InviteMemberInput }, async ({ actor, body }) => ({ status: 201, body: { member: await inviteMember(actor, body) } }));
