import { z } from 'zod';
import { OrgParams } from '../chats/params.ts';

/** `/api/orgs/{org_id}/team/{email}` (the email URL-encoded). */
export const TeamMemberParams = OrgParams.extend({ email: z.string().trim().toLowerCase().min(3, 'is required').max(254, 'is too long') });

/** `/api/invites/{invite_org_id}/…`: not `{org_id}`, so the membership middleware (active members only) does not run. */
export const InviteParams = z.object({ invite_org_id: z.string().min(1, 'is required') });
