import type { SQSRecord } from 'aws-lambda';
import { sqsBatchHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { applyAnalyticsBatch, type AnalyticsEvent } from '../../shared/analytics/analytics.ts';
import { inputsOfEvent } from '../../shared/analytics/analytics-events.ts';

/**
 * analytics-aggregate consumer (issue 19): message, close, assignment and ticket events become
 * counter increments on the aggregate rows, a whole SQS batch at a time per org
 * (shared/analytics/analytics.ts applyAnalyticsBatch: one read of the chats' states, each row's
 * increments summed into one ADD), exactly once per event id: the counters, the chats' analytics
 * states and the events' receipts share one transaction, so a redelivered event (or one retried
 * after a crash) changes nothing. A failed org batch fails (and retries) that org's records only.
 * Those receipts are the consumer's table receipts: the batch handler keeps in-process ones only.
 */
export const handler = sqsBatchHandler('analytics-aggregate', async (records: SQSRecord[]) => {
  const parsed = records.map((record) => {
    try {
      const ev = parseEventRecord(record, 'analytics-aggregate');
      const { properties, metadata } = ev.detail;
      const events: AnalyticsEvent[] = inputsOfEvent(ev['detail-type'], properties as unknown as Record<string, unknown>, metadata).map(({ suffix, input }) => ({ eventId: `${metadata.id}${suffix}`, input }));
      return { ok: true as const, org: properties.org_id, events };
    } catch (e) {
      return { ok: false as const, error: e };
    }
  });
  const byOrg = new Map<string, AnalyticsEvent[]>();
  for (const p of parsed) if (p.ok && p.events.length) (byOrg.get(p.org) ?? byOrg.set(p.org, []).get(p.org)!).push(...p.events);
  const outcome = new Map<string, PromiseSettledResult<unknown>>();
  await Promise.all(
    [...byOrg].map(async ([org, events]) => {
      outcome.set(org, await applyAnalyticsBatch(org, events).then((value) => ({ status: 'fulfilled' as const, value }), (reason: unknown) => ({ status: 'rejected' as const, reason })));
    }),
  );
  return parsed.map((p): PromiseSettledResult<unknown> => (!p.ok ? { status: 'rejected', reason: p.error } : p.events.length ? outcome.get(p.org)! : { status: 'fulfilled', value: 'nothing to count' }));
  // in-process receipts only: the claim transaction's own receipts (same consumer and event id)
  // make a repeat count nothing, so the batch handler's table receipts were a second BatchGet and
  // four BatchWrites of the same rows per 100 events (issue 23: the largest cost at 100 chats/s)
}, { receipts: 'memory' });
