/** API contracts of /settings/team and the invite flow (browser-safe zod). Spec §4 Invite, §6, §8. */
import { z } from 'zod';

export const MemberRole = z.enum(['admin', 'member'], { errorMap: () => ({ message: 'must be admin or member' }) });
export type MemberRole = z.infer<typeof MemberRole>;

/** A row of the team list: active members and pending invites. */
export const TeamMember = z.object({
  email: z.string(),
  member_name: z.string().nullable(),
  member_image: z.string().nullable(),
  role: MemberRole,
  /** 'invited' until the invitee joins (Member.is_active false) */
  status: z.enum(['active', 'invited']),
  invited_by: z.string().nullable(),
});
export type TeamMember = z.infer<typeof TeamMember>;

/** POST /api/orgs/{org_id}/team/invites body. */
export const InviteMemberInput = z.object({
  email: z.string({ required_error: 'Please enter a valid email address' }).trim().toLowerCase().email('Please enter a valid email address').max(254, 'is too long'),
  role: MemberRole.default('member'),
});
export type InviteMemberInput = z.input<typeof InviteMemberInput>;

/** PATCH /api/orgs/{org_id}/team/{email} body. */
export const UpdateMemberInput = z.object({ role: MemberRole }).strict();
export type UpdateMemberInput = z.infer<typeof UpdateMemberInput>;

/** POST /api/invites/{invite_org_id}/join body: the profile to fill in (spec §7 join). */
export const JoinInviteInput = z
  .object({
    member_name: z.string().trim().min(1, 'must not be empty').max(250, 'must be at most 250 characters').optional(),
    member_image: z.string().url('must be a URL').max(2000, 'is too long').optional(),
  })
  .strict();
export type JoinInviteInput = z.infer<typeof JoinInviteInput>;

/** Spec §8 Join / Decline toasts, verbatim ({org} is replaced by the org name). */
export const INVITE_MESSAGES = {
  joining: 'Joining org...',
  joined: (org: string) => `Joined ${org} successfully`,
  joinFailed: 'An error occured while joining. Please try again',
  declining: 'Declining invite...',
  declined: 'Invite declined! Reloading page...',
  declineFailed: 'An error occured while declining invite. Please try again',
  userNotFound: 'User not found',
} as const;
