import { getOrgPlanState } from '../plan/gate.ts';
import { entitlement } from '../plan/entitlements.rules.ts';
import { orgSlaPolicies } from '../sla/sla.ts';
import { slaEventOf } from '../sla/sla-engine.ts';
import { rulesArmTimers, sampleTokenLeft, type BusEvent } from './engine.ts';
import { orgRules } from './rules.ts';
import { triggersOf } from './triggers.rules.ts';

/**
 * Is a bus event worth the rules consumer's time: its consumer receipts (a BatchGet and a
 * BatchWrite per batch) and its reads? The consumer's `relevant` gate (functions/lib/sqs.ts). True when
 * the event fires a trigger or moves an SLA clock, the org's plan has the rules engine or its
 * subscription or trial ended (the consumer then writes the refusal to the rules log, issue 42 §2;
 * Starter's rules stay silent; plan state cached 5 s), and
 * - the org has any rule, enabled or not (a disabled rule's pending delayed actions still end on a reply), or any SLA policy
 *   (both lists cached about 2 s: the staleness the engine itself reads them with), or the chat carries an SLA clock; or
 * - it is a message event that would be kept as a dry-run sample (a token is left; taken later by handleRuleEvent),
 *   so a first rule's dry run still has recent events to read.
 * An org without rules and SLA policies so costs no DynamoDB call for most of its events. Issue 23:
 * `npm run bench:ingest -- --profile` (no rules) counted the rules consumer's receipts and samples
 * as the most calls of any consumer, on the same JVM that stores the messages.
 */
export async function ruleEventRelevant(e: BusEvent): Promise<boolean> {
  const props = e.detail.properties;
  const orgId = props.org_id as string | undefined;
  if (!orgId) return false;
  const fired = triggersOf(e);
  const sla = slaEventOf(e);
  if (!fired.length && !sla) return false;
  const gate = entitlement(await getOrgPlanState(orgId), Date.now(), 'rules_engine');
  if (!gate.allowed && gate.code === 'plan_feature') return false;
  if (sla && (props.chat as { sla?: unknown } | undefined)?.sla) return true;
  const [rules, policies] = await Promise.all([orgRules(orgId), orgSlaPolicies(orgId)]);
  if (rules.length || policies.length) return true;
  const now = Date.now();
  return fired.some((f) => (f.trigger === 'message.received' || f.trigger === 'message.sent') && sampleTokenLeft(orgId, f.trigger, now));
}

/**
 * Is handling this event a second time harmless, so the rules consumer may keep its receipt
 * in-process instead of a BatchGet and a BatchWrite per batch (functions/lib/sqs.ts
 * `memoryReceipt`)? True when the org has no SLA policy, the chat snapshot carries no SLA clock and
 * none of the org's rules arms a timer. Then a repeat finds every action's own exactly-once receipt
 * (event + rule + action index: no action runs twice) and rewrites the same log rows (ids made from
 * the event, engine.ts logRow). Not when timers exist: a repeat of an old customer message would
 * cancel follow-ups and re-arm 'no reply' timers that later events settled; nor for SLA clocks.
 * A loss of the in-process receipts (a restart) only means such events may be evaluated again.
 */
export async function ruleEventReplayHarmless(e: BusEvent): Promise<boolean> {
  const props = e.detail.properties;
  const orgId = props.org_id as string | undefined;
  if (!orgId) return false;
  if ((props.chat as { sla?: unknown } | undefined)?.sla) return false;
  const [rules, policies] = await Promise.all([orgRules(orgId), orgSlaPolicies(orgId)]);
  return !policies.length && !rulesArmTimers(rules);
}
