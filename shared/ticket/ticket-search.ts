import { db } from '../db/service.ts';
import type { SearchDoc } from '../ports/search.ts';
import { ticketChange } from '../search/search-docs.ts';

/**
 * The search document of a ticket (index `tickets`): its subject, with status, assignee, number,
 * chat and last update as meta and the Ticket wire as its view, scoped to its org: the same
 * document the indexing consumer writes.
 */
export const ticketSearchDoc = (t: Record<string, unknown>): SearchDoc => ticketChange(t).upsert[0]!.doc;

/**
 * Every ticket of every org as search documents: a full read of the ticket entity (ElectroDB
 * scan filtered to tickets), used only to rebuild a lost local index, never on a request path.
 */
export async function allTicketSearchDocs(): Promise<SearchDoc[]> {
  // whole rows: the document carries the Ticket wire as its view (the results list reads no rows)
  const res = await db().entities.ticket.scan.go({ pages: 'all' });
  return res.data.map(ticketSearchDoc);
}
