import { assertCanAddMember } from '../plan/plan.ts';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../auth/actor.ts';
import type { Claims } from '../auth/jwt.ts';
import { identityPort } from '../ports/identity.ts';
import { mailPort, type MailMessage } from '../ports/mail.ts';
import { log } from '../log.ts';
import { config } from '../config.ts';
import { dropMemberConnections } from '../realtime/connections.ts';
import type { JoinInviteInput, MemberRole, TeamMember } from './team.schemas.ts';
import { isConflictError } from '../db/retry.ts';

/**
 * Team management and the invite flow (spec §4 Invite, §6 roles). An invite is a Member row with
 * `is_active: false` (and `invited_by`); joining fills user_id, member_name, member_image and sets
 * is_active true (spec §7); declining deletes the row. Admin-only operations throw 403 for
 * members; the org itself is checked before (another org is a 404 from the actor middleware).
 */

const forbidden = () => new AppError('team.forbidden', 'Only admins can manage the team.', { status: 403 });
const memberNotFound = () => new AppError('member.not_found', 'That person is not a member of this workspace.', { status: 404 });
const inviteNotFound = () => new AppError('invite.not_found', 'That invite does not exist or was withdrawn.', { status: 404 });

type MemberRow = { email: string; member_name?: string; member_image?: string; role: MemberRole; is_active?: boolean; invited_by?: string };

const toTeamMember = (m: MemberRow): TeamMember => ({
  email: m.email,
  member_name: m.member_name ?? null,
  member_image: m.member_image ?? null,
  role: m.role,
  status: m.is_active === false ? 'invited' : 'active',
  invited_by: m.invited_by ?? null,
});

async function membersOf(orgId: string): Promise<MemberRow[]> {
  return (await db().entities.member.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data as MemberRow[];
}

/** Admins only. @throws AppError 403 team.forbidden */
function assertAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw forbidden();
}

/**
 * GET /team (admins): every member and pending invite of the org, active first, then by email.
 * @throws AppError 403 team.forbidden for members
 */
export async function listTeam(actor: Actor): Promise<TeamMember[]> {
  assertAdmin(actor);
  const rows = (await membersOf(actor.org_id)).map(toTeamMember);
  return rows.sort((a, b) => (a.status === b.status ? a.email.localeCompare(b.email) : a.status === 'active' ? -1 : 1));
}

/**
 * POST /team/invites (admins, spec §4): a pending membership (`is_active: false`, the given role),
 * when the email has no account yet a user in the pool, and the invitation email through the mail
 * port (SES; locally the outbox) with a sign-in link to `{APP_URL}/login`. The link's address comes
 * only from configuration (`APP_URL`: CDK context `appUrl`, required in AWS; the local runtime sets
 * it), never from the request, so nobody can make our mail identity send links to their own site.
 * @throws AppError 403 team.forbidden; 409 team.already_member / team.already_invited; 502
 *   team.invite_mail_failed when the email could not be sent (the invite is withdrawn)
 */
export async function inviteMember(actor: Actor, input: { email: string; role: MemberRole }): Promise<TeamMember> {
  assertAdmin(actor);
  const appUrl = config().APP_URL;
  const email = input.email.toLowerCase();
  const existing = (await db().entities.member.get({ org_id: actor.org_id, email }).go()).data;
  if (existing)
    throw existing.is_active === false
      ? new AppError('team.already_invited', `${email} has already been invited to this workspace.`, { status: 409 })
      : new AppError('team.already_member', `${email} is already a member of this workspace.`, { status: 409 });
  // issue 22: licences plus user add-ons (403 plan.limit_reached)
  await assertCanAddMember(actor.org_id);
  await identityPort().ensureUser(email);
  let row;
  try {
    row = await db().entities.member.create({ org_id: actor.org_id, email, role: input.role, is_active: false, is_online: false, invited_by: actor.email }).go();
  } catch (e) {
    if (isConflictError(e))
      throw new AppError('team.already_invited', `${email} has already been invited to this workspace.`, { status: 409 });
    throw e;
  }
  const org = (await db().entities.organization.get({ org_id: actor.org_id }).go()).data;
  try {
    await (await mailPort()).send(invitationEmail({ to: email, orgName: org?.org_name ?? 'a workspace', invitedBy: actor.email, appUrl }));
  } catch (e) {
    // no invite without its email: withdraw the row, so the admin can simply try again
    await db().entities.member.delete({ org_id: actor.org_id, email }).where((a, op) => op.eq(a.is_active, false)).go().catch(() => undefined);
    log('error', 'team.invite_mail_failed', { org_id: actor.org_id, error: String(e) });
    throw new AppError('team.invite_mail_failed', 'We could not send the invitation email. Please try again.', { status: 502 });
  }
  return toTeamMember(row.data as MemberRow);
}

/**
 * The invitation email (spec §4 Invite): subject 'You've been invited to {org} on Chorus', with the
 * sign-in link `{appUrl}/login` (invitees sign in with an email code, then see 'Join workspace');
 * without a configured `appUrl` ('') the mail names no link rather than guessing one.
 */
export function invitationEmail(p: { to: string; orgName: string; invitedBy: string; appUrl: string }): MailMessage {
  const link = p.appUrl ? `${p.appUrl.replace(/\/+$/, '')}/login` : 'Chorus';
  return {
    to: p.to,
    kind: 'invite',
    subject: `You've been invited to ${p.orgName} on Chorus`,
    text: [
      `${p.invitedBy} invited you to join ${p.orgName} on Chorus, the shared inbox for the team's WhatsApp numbers.`,
      '',
      `Sign in at ${link} with this email address (${p.to}): choose 'Email me a code', enter the code we send you, then choose Join.`,
    ].join('\n'),
  };
}

/** Active admins of the org other than `email`. */
const otherActiveAdmins = (rows: MemberRow[], email: string) => rows.filter((m) => m.role === 'admin' && m.is_active !== false && m.email !== email).length;

/**
 * PATCH /team/{email} (admins): change a member's (or an invitee's) role.
 * @throws AppError 403 team.forbidden; 404 member.not_found; 400 team.last_admin when it would
 *   leave the workspace without an active admin
 */
export async function changeMemberRole(actor: Actor, email: string, role: MemberRole): Promise<TeamMember> {
  assertAdmin(actor);
  const rows = await membersOf(actor.org_id);
  const target = rows.find((m) => m.email === email.toLowerCase());
  if (!target) throw memberNotFound();
  if (target.role === 'admin' && role !== 'admin' && target.is_active !== false && otherActiveAdmins(rows, target.email) === 0)
    throw new AppError('team.last_admin', 'A workspace needs at least one admin. Make another member admin first.', { status: 400 });
  if (target.role === role) return toTeamMember(target);
  const updated = await db().entities.member.patch({ org_id: actor.org_id, email: target.email }).set({ role }).go({ response: 'all_new' });
  return toTeamMember(updated.data as MemberRow);
}

/**
 * DELETE /team/{email} (admins): remove a member or withdraw an invite. The member's WebSocket
 * connections in this org are dropped and closed at once (shared/realtime/connections.ts).
 * @throws AppError 403 team.forbidden; 404 member.not_found; 400 team.remove_self (an admin cannot
 *   remove themself) or team.last_admin (the last active admin stays)
 */
export async function removeMember(actor: Actor, email: string): Promise<void> {
  assertAdmin(actor);
  const lower = email.toLowerCase();
  if (lower === actor.email.toLowerCase()) throw new AppError('team.remove_self', 'You cannot remove yourself from the workspace.', { status: 400 });
  const rows = await membersOf(actor.org_id);
  const target = rows.find((m) => m.email === lower);
  if (!target) throw memberNotFound();
  if (target.role === 'admin' && target.is_active !== false && otherActiveAdmins(rows, target.email) === 0)
    throw new AppError('team.last_admin', 'A workspace needs at least one admin. Make another member admin first.', { status: 400 });
  await db().entities.member.delete({ org_id: actor.org_id, email: lower }).go();
  // their open sockets stop at once (issue 11): rows dropped, sockets closed when the gateway allows
  await dropMemberConnections(actor.org_id, lower);
}

/** The caller's pending invite to `orgId`. @throws AppError 404 invite.not_found */
async function pendingInvite(claims: Claims, orgId: string): Promise<MemberRow> {
  const row = (await db().entities.member.get({ org_id: orgId, email: claims.email }).go()).data as MemberRow | null;
  if (!row || row.is_active !== false) throw inviteNotFound();
  return row;
}

/**
 * POST /api/invites/{org_id}/join (spec §4, §7): activate the caller's invite, filling user_id
 * (Cognito sub), member_name (given, else the one the admin set, else the email's local part) and
 * member_image.
 * @returns the org joined (its name for the 'Joined {org} successfully' toast)
 * @throws AppError 404 invite.not_found when the caller has no pending invite to that org
 */
export async function joinInvite(claims: Claims, orgId: string, input: JoinInviteInput): Promise<{ org_id: string; org_name: string }> {
  const row = await pendingInvite(claims, orgId);
  const member_name = input.member_name ?? row.member_name ?? claims.email.split('@')[0];
  await db()
    .entities.member.patch({ org_id: orgId, email: claims.email })
    .set({ user_id: claims.sub, member_name, ...(input.member_image ? { member_image: input.member_image } : {}), is_active: true, is_online: true })
    .where((a, op) => op.eq(a.is_active, false))
    .go();
  const org = (await db().entities.organization.get({ org_id: orgId }).go()).data;
  return { org_id: orgId, org_name: org?.org_name ?? orgId };
}

/**
 * POST /api/invites/{org_id}/decline (spec §4, §7): delete the caller's pending membership.
 * @throws AppError 404 invite.not_found
 */
export async function declineInvite(claims: Claims, orgId: string): Promise<void> {
  await pendingInvite(claims, orgId);
  await db()
    .entities.member.delete({ org_id: orgId, email: claims.email })
    .where((a, op) => op.eq(a.is_active, false))
    .go();
}
