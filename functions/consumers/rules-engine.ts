import { NOOP, sqsBatchHandler } from '../lib/sqs.ts';
import { ruleEventRelevant, ruleEventReplayHarmless } from '../../shared/rules/relevance.ts';
import { parseEventRecord } from '../lib/records.ts';
import { flushRuleWrites, handleRuleEvent, logRefusedRuleEvent, newRuleWrites, type BusEvent } from '../../shared/rules/engine.ts';
import { handleSlaEvent } from '../../shared/sla/sla-engine.ts';
import { entitlementRefusal, type Refusal } from '../lib/entitled.ts';

/**
 * rules-engine consumer (issue 17): evaluates the org's automation rules on each subscribed bus
 * event (shared/rules/engine.ts handleRuleEvent), all records of a batch concurrently. Deduped by
 * event id with one BatchGet / one BatchWrite of consumer receipts per batch (sqsBatchHandler,
 * not a Get and a Put per record) — or in-process only when a repeat is harmless (an org whose
 * rules arm no timers and without SLA policies: relevance.ts ruleEventReplayHarmless) — and idempotent per action (receipts by event + rule + action
 * index), so redelivery never repeats an action; an unexpected failure is retried, then
 * dead-lettered with the reason (only the failed records of a batch).
 * The batch's private-note actions commit in one transaction (engine.ts RuleWrites.joins: each
 * note with its own exactly-once receipt and rate count, all or nothing; a cancelled one falls
 * back to one transaction per note). The batch's log rows, dry-run samples and done receipts are written together after its
 * evaluations (engine.ts flushRuleWrites: one or two BatchWrites for the batch, not one per
 * event); if that write fails, every record of the batch is retried (its actions are skipped by
 * their receipts).
 * The same events drive the SLA clocks (issue 17 §6, shared/sla/sla-engine.ts handleSlaEvent).
 * Events of an org without rules or SLA policies are skipped before any table call (relevance.ts
 * ruleEventRelevant), and an event that changed nothing but a dry-run sample is answered NOOP
 * (an in-process receipt only).
 * Issue 42: events of an org that may not use the rules engine now (Starter, spec §9; an ended
 * subscription or trial) are not evaluated: logged with the reason (`plan.refused`), and one row
 * per event in the rules log (the /rules Log tab) naming the rules not evaluated and the code
 * (engine.ts logRefusedRuleEvent: the cached rules only, written with the batch's other rows).
 */
export const handler = sqsBatchHandler('rules-engine', async (records) => {
  const writes = newRuleWrites({ joins: true });
  const settled = await Promise.allSettled(
    records.map(async (record) => {
      // every record enters before any awaits (map runs them to their first await): a round of
      // notes is committed once each record waits on it or is done
      const joins = writes.joins!;
      joins.enter();
      let ev: BusEvent;
      try {
        ev = parseEventRecord(record, 'rules-engine') as unknown as BusEvent;
      } catch (e) {
        joins.leave();
        throw e;
      }
      // the plan (issue 42); a failed read leaves the round too, like a bad record
      let refusal: Refusal | null;
      try {
        refusal = await entitlementRefusal(String(ev.detail.properties.org_id ?? ''), 'rules_engine', 'rules.event', { event: ev['detail-type'] });
        if (refusal) await logRefusedRuleEvent(ev, refusal, writes);
      } catch (e) {
        joins.leave();
        throw e;
      }
      if (refusal) {
        joins.leave();
        return NOOP;
      }
      const delivery = { sentAt: Number(record.attributes?.SentTimestamp) || undefined, receivedAt: Number(record.attributes?.ApproximateFirstReceiveTimestamp) || undefined };
      const [acted, slaActed] = await Promise.all([handleRuleEvent(ev, delivery, writes).finally(() => joins.leave()), handleSlaEvent(ev)]);
      return acted || slaActed ? undefined : NOOP;
    }),
  );
  try {
    await flushRuleWrites(writes);
  } catch (e) {
    return settled.map((): PromiseSettledResult<unknown> => ({ status: 'rejected', reason: e }));
  }
  return settled;
}, {
  // an org without rules or SLA policies: no receipts, no reads (but a few message events a second as dry-run samples)
  relevant: async (record) => {
    try {
      return await ruleEventRelevant(parseEventRecord(record, 'rules-engine') as unknown as BusEvent);
    } catch {
      return true; // unreadable: the handler reports it
    }
  },
  // an org whose rules arm no timers and which has no SLA policy: a repeat is harmless (actions have
  // their own receipts, log rows are rewritten), so the receipt is kept in-process (relevance.ts)
  memoryReceipt: async (record) => ruleEventReplayHarmless(parseEventRecord(record, 'rules-engine') as unknown as BusEvent),
});
