import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import type { Claims } from '../auth/jwt.ts';
import type { MeResponse } from '../me.schemas.ts';

/**
 * GET /api/me: the user, the orgs they are an active member of (index byEmail) with each org's
 * phones and member_permissions, and their pending invites (`is_active: false` rows, spec §4).
 */
export async function getMe(claims: Claims): Promise<MeResponse> {
  const all = (await db().entities.member.query.byEmail({ email: claims.email }).go({ pages: 'all' })).data;
  const memberships = all.filter((m) => m.is_active !== false);
  const invites = await Promise.all(
    all
      .filter((m) => m.is_active === false)
      .map(async (m) => ({ org_id: m.org_id, org_name: (await db().entities.organization.get({ org_id: m.org_id }).go()).data?.org_name ?? m.org_id, invited_by: m.invited_by ?? null })),
  );
  const orgs = await Promise.all(
    memberships.map(async (m) => {
      const [org, phones] = await Promise.all([
        db().entities.organization.get({ org_id: m.org_id }).go(),
        db().entities.phone.query.byOrg({ org_id: m.org_id }).go({ pages: 'all' }),
      ]);
      return {
        org_id: m.org_id,
        org_name: org.data?.org_name ?? m.org_id,
        role: m.role,
        is_platform: org.data?.is_platform === true,
        member_name: m.member_name ?? null,
        is_online: m.is_online !== false,
        mask_phone_numbers: !!(org.data?.org_metadata as { preferences?: { mask_phone_numbers?: boolean } } | undefined)?.preferences?.mask_phone_numbers,
        member_permissions: { ...((org.data?.org_metadata as { preferences?: { member_permissions?: Record<string, boolean> } } | undefined)?.preferences?.member_permissions ?? {}) },
        phones: phones.data.map((p) => ({ phone_id: p.phone_id, org_phone: p.org_phone, connection_type: p.connection_type })),
      };
    }),
  );
  return { user: { email: claims.email, user_id: claims.sub }, orgs, invites };
}

/** GET /members: active members of the actor's org (assignee pickers), by email (table index byOrg). */
export async function listMembers(actor: { org_id: string }): Promise<Array<{ email: string; member_name: string | null; role: 'admin' | 'member'; is_online: boolean }>> {
  const rows = (await db().entities.member.query.byOrg({ org_id: actor.org_id }).go({ pages: 'all' })).data;
  return rows.filter((m) => m.is_active !== false).map((m) => ({ email: m.email, member_name: m.member_name ?? null, role: m.role, is_online: m.is_online !== false }));
}

/**
 * The email must be an active member of the org (assignees of tickets and tasks).
 * @throws AppError 400 validation with `details: [{ field, reason: 'is not a member of this workspace' }]`
 */
export async function assertActiveMember(orgId: string, email: string, field = 'assignee'): Promise<void> {
  const m = (await db().entities.member.get({ org_id: orgId, email }).go()).data;
  if (!m || m.is_active === false) throw new AppError('validation', `${email} is not a member of this workspace.`, { details: [{ field, reason: 'is not a member of this workspace' }] });
}
