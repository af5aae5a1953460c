import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { handleRuleWakeup, logRefusedRuleWakeup, type RuleWakeup } from '../../shared/rules/engine.ts';
import { handleSlaWakeup, logRefusedSlaWakeup } from '../../shared/sla/sla-engine.ts';
import { SLA_TARGETS } from '../../shared/sla/sla.schemas.ts';
import { entitlementRefusal } from '../lib/entitled.ts';

/** A wake-up put on rule-actions by the scheduler (shared/rules/engine.ts schedulePending). Times epoch ms. */
const Wakeup = z
  .object({
    kind: z.enum(['action', 'follow_up', 'no_reply']),
    org_id: z.string(),
    rule_id: z.string(),
    chat_id: z.string(),
    key: z.string(),
    action_index: z.number().int(),
    step: z.number().int().optional(),
    anchor: z.number(),
    event_id: z.string(),
    trigger: z.string(),
  })
  .passthrough();

/** An SLA clock's near-breach or breach wake-up (shared/sla/sla-engine.ts). `started_at`: epoch ms, the clock's identity. */
const SlaWakeup = z
  .object({ kind: z.literal('sla'), org_id: z.string(), chat_id: z.string(), target: z.enum(SLA_TARGETS), phase: z.enum(['near', 'breach']), started_at: z.number(), policy_id: z.string(), at: z.number().optional() })
  .passthrough();

/**
 * rule-actions consumer: runs a delayed rule action, a follow-up step or a 'no reply' timer, or
 * ignores a stale one (handleRuleWakeup); SLA near-breach / breach wake-ups go to handleSlaWakeup.
 * Issue 42: nothing runs while the org may not use the rules engine (Starter, spec §9; an ended
 * subscription or trial); each skipped wake-up is logged with the reason and written to the rules
 * log (the SLA's rows under `sla:<policy>`), where the admin looks.
 */
export const handler = sqsHandler('rule-actions', async (record) => {
  const w = parseCommandRecord(record, z.union([SlaWakeup, Wakeup]));
  const refusal = await entitlementRefusal(w.org_id, 'rules_engine', w.kind === 'sla' ? 'sla.wakeup' : 'rules.wakeup', { chat_id: w.chat_id, kind: w.kind });
  if (refusal) {
    // issue 42 §2: the refusal in the rules / SLA log, where the admin looks
    if (w.kind === 'sla') await logRefusedSlaWakeup(w as z.infer<typeof SlaWakeup>, refusal);
    else await logRefusedRuleWakeup(w as unknown as RuleWakeup, refusal);
    return;
  }
  if (w.kind === 'sla') await handleSlaWakeup(w as z.infer<typeof SlaWakeup>);
  else await handleRuleWakeup(w as unknown as RuleWakeup);
});
