import { ulid } from 'ulid';
import { TRIAL } from '../plan/catalog.rules.ts';
import { db } from '../db/service.ts';
import { commitTransaction } from '../db/transaction.ts';
import { AppError } from '../errors.ts';
import type { Claims } from '../auth/jwt.ts';
import { ORG_SETUP_MESSAGES, type CreateOrgData } from './org.schemas.ts';

/**
 * Free-trial length in days, recorded on every new org (`trial_days`, `trial_ends_at`). The spec
 * does not give one; 14 days is the common length for team-inbox products. Plan gates come later.
 */
export const TRIAL_DAYS = TRIAL.days;
const DAY_MS = 86_400_000;

/**
 * Is the user on a free trial for workspace creation (spec §6)? We read it as: the user already
 * belongs (actively) to at least one org, and none of those orgs is on a paid plan
 * (`is_free_trial` false). A user with no org yet may always create the first one.
 */
export function mustHaveMultipleOrgsFlag(orgs: Array<{ is_free_trial?: boolean }>): boolean {
  return orgs.length > 0 && orgs.every((o) => o.is_free_trial !== false);
}

/**
 * POST /api/orgs (spec §5 organization setup): a new workspace with the caller as its active admin,
 * on a free trial of {@link TRIAL_DAYS} days starting now (`plan_started_at`, `trial_ends_at`, epoch ms),
 * with empty preferences (every member permission allowed, numbers not masked).
 * A free-trial user who already has a workspace needs `allow_multiple_orgs` on their User row.
 * @returns the new org id
 * @throws AppError 403 org.free_trial_limit with spec §6's message
 */
export async function createOrg(claims: Claims, input: CreateOrgData, now = Date.now()): Promise<{ org_id: string }> {
  const s = db().entities;
  const memberships = (await s.member.query.byEmail({ email: claims.email }).go({ pages: 'all' })).data.filter((m) => m.is_active !== false);
  if (memberships.length > 0) {
    const orgs = (await Promise.all(memberships.map((m) => s.organization.get({ org_id: m.org_id }).go()))).map((r) => r.data).filter((o) => o !== null);
    if (mustHaveMultipleOrgsFlag(orgs)) {
      const user = (await s.user.get({ email: claims.email }).go()).data;
      if (!user?.allow_multiple_orgs) throw new AppError('org.free_trial_limit', ORG_SETUP_MESSAGES.freeTrialLimit, { status: 403 });
    }
  }
  const org_id = `org_${ulid().toLowerCase()}`;
  // the org and its first admin together, or neither
  const ok = await commitTransaction(({ organization, member }) => [
    organization
      .create({
        org_id,
        org_name: input.org_name,
        contact_name: input.contact_name || undefined,
        phone_number: input.phone_number,
        referral_source: input.referralSource,
        currency: input.currency,
        created_by: claims.email,
        is_free_trial: true,
        subscription_status: 'trialing',
        plan_started_at: now,
        trial_days: TRIAL_DAYS,
        trial_ends_at: now + TRIAL_DAYS * DAY_MS,
        org_metadata: { preferences: { mask_phone_numbers: false, member_permissions: {} } },
      })
      .commit(),
    member.create({ org_id, email: claims.email, user_id: claims.sub, member_name: input.contact_name || claims.email.split('@')[0], role: 'admin', is_active: true }).commit(),
  ]);
  if (!ok) throw new Error(`creating org ${org_id} was cancelled`);
  return { org_id };
}
