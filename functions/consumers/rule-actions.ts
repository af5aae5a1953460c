import { z } from 'zod';
import { sqsHandler } from '../lib/sqs.ts';
import { parseCommandRecord } from '../lib/records.ts';
import { handleRuleWakeup, type RuleWakeup } from '../../shared/rules/engine.ts';

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

/** rule-actions consumer: runs a delayed rule action, a follow-up step or a 'no reply' timer, or ignores a stale one (handleRuleWakeup). */
export const handler = sqsHandler('rule-actions', async (record) => {
  const w = parseCommandRecord(record, Wakeup);
  await handleRuleWakeup(w as unknown as RuleWakeup);
});
