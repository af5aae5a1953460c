import { db } from '../db/service.ts';
import type { SearchDoc } from '../ports/search.ts';

/** The search document of a ticket (index `tickets`): its subject, scoped to its org. */
export const ticketSearchDoc = (t: { ticket_id: string; org_id: string; subject: string }): SearchDoc => ({ id: t.ticket_id, org_id: t.org_id, fields: { subject: t.subject } });

/**
 * Every ticket of every org as search documents: a full read of the ticket entity (ElectroDB
 * scan filtered to tickets), used only to rebuild a lost local index, never on a request path.
 */
export async function allTicketSearchDocs(): Promise<SearchDoc[]> {
  const res = await db().entities.ticket.scan.go({ pages: 'all', attributes: ['ticket_id', 'org_id', 'subject'] });
  return res.data.map(ticketSearchDoc);
}
