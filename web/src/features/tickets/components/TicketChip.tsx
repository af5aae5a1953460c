/** The ticket a message belongs to, shown under the bubble; opens the ticket on /tickets. */
import { useNavigate } from 'react-router-dom';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import { STATUS_LABELS, ticketRef } from '../api/tickets.ts';

export function TicketChip({ ticketId, ticket }: { ticketId: string; ticket?: Ticket | null }) {
  const navigate = useNavigate();
  const text = ticket ? ticket.subject : `Ticket ${ticketRef(ticketId)}`;
  return (
    <button
      type="button"
      className={`ticket-chip ${ticket ? `status-${ticket.status}` : ''}`}
      data-testid="ticket-chip"
      data-ticket-id={ticketId}
      title={ticket ? `Ticket ${ticketRef(ticketId)} · ${STATUS_LABELS[ticket.status]} — open it` : 'Open this ticket'}
      onClick={() => navigate(`/tickets?ticket=${encodeURIComponent(ticketId)}`)}
    >
      <Icon name="tickets" size={14} />
      <span className="ticket-chip-text">{text}</span>
      {ticket && <span className="ticket-chip-status">{STATUS_LABELS[ticket.status]}</span>}
    </button>
  );
}
