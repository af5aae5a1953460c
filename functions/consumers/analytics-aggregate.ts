import { sqsHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { applyAnalyticsInput } from '../../shared/analytics/analytics.ts';
import { inputsOfEvent } from '../../shared/analytics/analytics-events.ts';

/**
 * analytics-aggregate consumer (issue 19): each message, close, assignment and ticket event becomes
 * counter increments on the aggregate rows (shared/analytics/analytics.ts), exactly once per event
 * id: the counters, the chat's analytics state and the event's receipt share one transaction, so a
 * redelivered event (or one retried after a crash) changes nothing.
 */
export const handler = sqsHandler('analytics-aggregate', async (record) => {
  const ev = parseEventRecord(record, 'analytics-aggregate');
  const { properties, metadata } = ev.detail;
  for (const { suffix, input } of inputsOfEvent(ev['detail-type'], properties as unknown as Record<string, unknown>, metadata)) {
    await applyAnalyticsInput(properties.org_id, `${metadata.id}${suffix}`, input);
  }
});
