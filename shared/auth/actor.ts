import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { resolveIdentity } from './identity.ts';
import type { Claims } from './jwt.ts';

/**
 * The actor of a request: who (from the token) acting in which org with which role (from the
 * table). Handlers get it from the one middleware and never re-derive membership.
 */
export interface Actor {
  email: string;
  user_id: string;
  org_id: string;
  role: 'admin' | 'member';
}

/**
 * Resolve membership of `orgId` (spec §6) for the account that signed in: its email is the one bound
 * to the token's `sub` (shared/auth/identity.ts), not whatever the email claim says now. An org the
 * user does not belong to is a 404, the same answer as an org that does not exist, so ids cannot be
 * probed.
 * @throws AppError 404 organization.not_found; 401 auth.identity_conflict (see resolveIdentity)
 */
export async function resolveActor(claims: Claims, orgId: string): Promise<Actor> {
  const { email, sub } = await resolveIdentity(claims);
  const member = (await db().entities.member.get({ org_id: orgId, email }).go()).data;
  if (!member || member.is_active === false) {
    throw new AppError('organization.not_found', 'That workspace does not exist or you are not a member of it.', { status: 404 });
  }
  return { email, user_id: sub, org_id: orgId, role: member.role };
}
