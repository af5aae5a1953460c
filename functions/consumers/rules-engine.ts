import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { handleRuleEvent, type BusEvent } from '../../shared/rules/engine.ts';

/**
 * rules-engine consumer (issue 17): evaluates the org's automation rules on each subscribed bus
 * event (shared/rules/engine.ts handleRuleEvent). Deduped by event id (sqsHandler) and idempotent
 * per action (receipts), so redelivery never repeats an action; an unexpected failure is retried,
 * then dead-lettered with the reason.
 */
export const handler = sqsHandler('rules-engine', async (record) => {
  const e = parseEventRecord(record, 'rules-engine');
  await handleRuleEvent(e as unknown as BusEvent);
});
