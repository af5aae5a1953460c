import { sqsBatchHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { searchPort } from '../../shared/ports/search.ts';
import { ticketSearchDoc } from '../../shared/ticket/ticket-search.ts';

/**
 * search-indexing consumer: ticket events -> the search port (OpenSearch in AWS, the embedded
 * index locally). A batch becomes one bulk upsert; the newest snapshot of a ticket in the batch
 * wins. Upserts are idempotent, so redelivery is harmless; a failed bulk fails the whole batch
 * (each record is retried, then dead-lettered).
 */
export const handler = sqsBatchHandler('search-indexing', async (records) => {
  const latest = new Map<string, { ticket_id: string; org_id: string; subject: string; last_updated_at: number }>();
  const parsed = records.map((record) => {
    try {
      const { ticket } = parseEventRecord(record, 'search-indexing').detail.properties as { ticket: { ticket_id: string; org_id: string; subject: string; last_updated_at: number } };
      const seen = latest.get(ticket.ticket_id);
      if (!seen || seen.last_updated_at <= ticket.last_updated_at) latest.set(ticket.ticket_id, ticket);
      return { ok: true as const };
    } catch (e) {
      return { ok: false as const, error: e };
    }
  });
  const bulk = (async () => (await searchPort()).upsert('tickets', [...latest.values()].map(ticketSearchDoc)))();
  return Promise.all(
    parsed.map(async (p): Promise<PromiseSettledResult<unknown>> => {
      if (!p.ok) return { status: 'rejected', reason: p.error };
      try {
        await bulk;
        return { status: 'fulfilled', value: undefined };
      } catch (e) {
        return { status: 'rejected', reason: e };
      }
    }),
  );
});
