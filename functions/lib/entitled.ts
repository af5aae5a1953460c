import { orgEntitlement } from '../../shared/plan/gate.ts';
import type { Use } from '../../shared/plan/entitlements.rules.ts';
import { log } from '../../shared/log.ts';

/**
 * The entitlement gate for a consumer about to act (issue 42): may the org make this use now
 * (shared/plan/entitlements.rules.ts `entitlement`, the org's plan state cached 5 s)? A refusal is
 * logged with its code and what was not done (`plan.refused`), so nothing stops unseen; sends are
 * also stopped, and recorded on the message, at the outbound chokepoint (whatsapp-outbound.ts).
 * @param what what the consumer would have done, e.g. 'ai.reply', 'rules.event'
 * @returns true when allowed
 */
export async function entitledOrLog(orgId: string, use: Use, what: string, extra: Record<string, unknown> = {}): Promise<boolean> {
  if (!orgId) return true;
  const d = await orgEntitlement(orgId, use);
  if (d.allowed) return true;
  log('info', 'plan.refused', { org_id: orgId, use, what, code: d.code, plan_needed: d.plan_needed, ...extra });
  return false;
}
