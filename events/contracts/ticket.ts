import { z } from 'zod';

/**
 * Contracts of the ticket events. The snapshot is the API's Ticket wire shape
 * (shared/ticket/ticket.schemas.ts); only the fields consumers rely on are required here.
 */
export const TicketSnapshot = z
  .object({
    org_id: z.string(),
    ticket_id: z.string(),
    subject: z.string(),
    chat_id: z.string(),
    status: z.enum(['open', 'inprogress', 'closed']),
    assignee: z.string().nullable(),
    /** epoch ms */
    last_updated_at: z.number(),
  })
  .passthrough();

/** ticket.created v1: a member made a ticket from a message. */
export const TicketCreatedV1 = z.object({ org_id: z.string(), ticket: TicketSnapshot });
/** ticket.updated v1: fields of a ticket changed (`changes` names them); also attach/detach and first response. */
export const TicketUpdatedV1 = z.object({ org_id: z.string(), ticket: TicketSnapshot, changes: z.array(z.string()) });
/** ticket.closed v1: a ticket's status became closed (sent instead of ticket.updated for that change). */
export const TicketClosedV1 = z.object({ org_id: z.string(), ticket: TicketSnapshot, changes: z.array(z.string()) });
