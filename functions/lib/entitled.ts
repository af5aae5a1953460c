import { orgEntitlement } from '../../shared/plan/gate.ts';
import type { Entitlement, Use } from '../../shared/plan/entitlements.rules.ts';
import { log } from '../../shared/log.ts';

/** A refusal of the entitlement gate (its code, status, plan needed and message). */
export type Refusal = Extract<Entitlement, { allowed: false }>;

/**
 * The entitlement gate for a consumer about to act (issue 42): may the org make this use now
 * (shared/plan/entitlements.rules.ts `entitlement`, the org's plan state cached 5 s)? A refusal is
 * logged with its code and what was not done (`plan.refused`); the consumer then records it where
 * the admin looks (the rules log, the AI decisions log, the broadcast's pause reason). Sends are
 * also stopped, and recorded on the message, at the outbound chokepoint (whatsapp-outbound.ts).
 * @param what what the consumer would have done, e.g. 'ai.reply', 'rules.event'
 * @returns null when allowed, else the refusal
 */
export async function entitlementRefusal(orgId: string, use: Use, what: string, extra: Record<string, unknown> = {}): Promise<Refusal | null> {
  if (!orgId) return null;
  const d = await orgEntitlement(orgId, use);
  if (d.allowed) return null;
  log('info', 'plan.refused', { org_id: orgId, use, what, code: d.code, plan_needed: d.plan_needed, ...extra });
  return d;
}

/**
 * {@link entitlementRefusal} as a yes/no, for a consumer whose refusal the process log is enough for.
 * @returns true when allowed
 */
export async function entitledOrLog(orgId: string, use: Use, what: string, extra: Record<string, unknown> = {}): Promise<boolean> {
  return !(await entitlementRefusal(orgId, use, what, extra));
}
