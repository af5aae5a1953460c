import { ulid } from 'ulid';
import { db } from '../../shared/db/service.ts';
import { clearPhoneCache } from '../../shared/phone/phone.ts';
import { bindIdentity } from '../../shared/auth/identity.ts';
import { TRIAL } from '../../shared/plan/catalog.rules.ts';

/**
 * Demo workspace for the embedded default: one org, an admin and a member (Cognito users are
 * created by the caller), and one WhatsApp Cloud API number. Idempotent: existing rows are kept,
 * the phone follows the configured phone_number_id. The two emails are bound to the given Cognito
 * subs (shared/auth/identity.ts), replacing an older binding: when cognito-local's store was lost the
 * runtime re-creates the demo users with new subs, and they must still be those emails.
 */
export interface SeedInput {
  orgId?: string;
  orgName: string;
  admin: { email: string; sub: string; name: string };
  member: { email: string; sub: string; name: string };
  phone: { phone_number_id: string; display_phone_number: string };
}

/** @returns the org id (new or existing) */
export async function seedDemo(input: SeedInput): Promise<string> {
  const orgId = input.orgId ?? `org_${ulid().toLowerCase()}`;
  const s = db().entities;
  const existing = (await s.organization.get({ org_id: orgId }).go()).data;
  if (!existing) {
    // issue 22: the demo workspace starts on the free trial (shared/plan/catalog.rules.ts TRIAL)
    const now = Date.now();
    await s.organization
      .create({
        org_id: orgId,
        org_name: input.orgName,
        is_free_trial: true,
        subscription_status: 'trialing',
        currency: 'USD',
        plan_started_at: now,
        trial_days: TRIAL.days,
        trial_ends_at: now + TRIAL.days * 86_400_000,
        org_metadata: { preferences: { mask_phone_numbers: false, member_permissions: {} } },
      })
      .go();
    // a few chat labels to start from (/settings/labels)
    for (const [name, color] of [
      ['VIP', '#c2410c'],
      ['Billing', '#1d4ed8'],
      ['Lead', '#15803d'],
    ] as const) {
      await s.chatLabel.create({ org_id: orgId, label_id: `lbl_${ulid()}`, name, color, created_by: input.admin.email }).go();
    }
  }
  for (const [who, role] of [
    [input.admin, 'admin'],
    [input.member, 'member'],
  ] as const) {
    const m = (await s.member.get({ org_id: orgId, email: who.email }).go()).data;
    if (!m) await s.member.create({ org_id: orgId, email: who.email, member_name: who.name, user_id: who.sub, role, is_active: true }).go();
    else if (m.user_id !== who.sub) await s.member.patch({ org_id: orgId, email: who.email }).set({ user_id: who.sub }).go();
    await bindIdentity(who.sub, who.email, { replace: true });
  }
  const phones = (await s.phone.query.byOrg({ org_id: orgId }).go()).data;
  const wanted = input.phone.phone_number_id;
  const taken = (await s.phone.query.byExternalId({ connection_type: 'wa_cloud', phone_id: wanted }).go()).data.find((p) => p.org_id !== orgId);
  if (taken) throw new Error(`phone_number_id ${wanted} already belongs to org ${taken.org_id}`);
  if (!phones.some((p) => p.phone_id === wanted)) {
    await s.phone.create({ org_id: orgId, phone_id: wanted, org_phone: input.phone.display_phone_number, connection_type: 'wa_cloud', is_ready: true, first_connected_at: Date.now() }).go();
  }
  clearPhoneCache();
  return orgId;
}

/**
 * Retire a demo org for `npm run demo:reset` (issue 22): its members and phones are removed (key
 * lookups by org), so nobody reaches it any more and its WhatsApp number is free for the fresh demo
 * org that {@link seedDemo} creates next. Its other rows stay in the local table, unreachable
 * (a row-by-row wipe of every derived entity — counters, label links, analytics — would be a second
 * copy of every delete path; the local data dir can be removed for a full wipe).
 */
export async function retireDemoOrg(orgId: string): Promise<void> {
  const s = db().entities;
  const members = (await s.member.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data;
  for (const m of members) await s.member.delete({ org_id: orgId, email: m.email }).go();
  const phones = (await s.phone.query.byOrg({ org_id: orgId }).go({ pages: 'all' })).data;
  for (const p of phones) await s.phone.delete({ org_id: orgId, phone_id: p.phone_id }).go();
  clearPhoneCache();
}
