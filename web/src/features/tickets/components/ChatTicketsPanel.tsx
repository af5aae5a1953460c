/**
 * The chat's details panel (beside the thread; full screen on phones): the chat's tickets, open
 * and in progress first (sortChatTickets), each with a quick status change (PATCH /tickets/{id}
 * {status}, optimistic with rollback) and a link to the ticket. Closable (button or Esc).
 */
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Ticket, TicketStatus } from '#shared/ticket/ticket.schemas.ts';
import { sortChatTickets } from '#shared/ticket/ticket.rules.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { STATUS_OPTIONS, dueText, isOverdue, ticketRef } from '../api/tickets.ts';
import { PriorityTag, TicketLabels } from './fields.tsx';
import { Options } from '../../../components/ui/Options.tsx';

export function ChatTicketsPanel({
  tickets,
  status,
  error,
  onRetry,
  onClose,
  onChange,
  children,
}: {
  /** more sections at the top of the panel (issue 15: the chat's custom properties) */
  children?: ReactNode;
  tickets: Ticket[] | null;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  onRetry: () => void;
  onClose: () => void;
  /** a ticket changed here (optimistic value, then the server's answer, or the rollback): replace it as is */
  onChange: (t: Ticket) => void;
}) {
  const { org } = useSession();
  const toast = useToast();
  const sorted = useMemo(() => sortChatTickets(tickets ?? []), [tickets]);
  const openCount = sorted.filter((t) => t.status !== 'closed').length;

  async function setStatus(t: Ticket, s: TicketStatus) {
    if (t.status === s) return;
    onChange({ ...t, status: s });
    try {
      onChange(await api.updateTicket(org.org_id, t.ticket_id, { status: s }));
    } catch (e) {
      onChange(t);
      toast.show(errorMessage(e), 'error');
    }
  }

  return (
    <aside
      className="details-panel"
      id="chat-details-panel"
      data-testid="chat-tickets-panel"
      aria-label="Chat details"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !(e.target instanceof HTMLSelectElement)) {
          e.preventDefault();
          onClose();
        }
      }}
    >
      <header className="details-head">
        <h2>Details</h2>
        <button type="button" className="icon-btn" aria-label="Close details" title="Close details (Esc)" onClick={onClose}>
          <Icon name="close" size={18} />
        </button>
      </header>
      {children}
      <section className="details-section" aria-labelledby="chat-tickets-title">
        <h3 id="chat-tickets-title">
          Tickets {tickets && tickets.length > 0 && <span className="muted">· {openCount} open</span>}
        </h3>
        {status === 'loading' && (
          <div className="panel-skeleton" aria-label="Loading tickets">
            <span className="skeleton-line" />
            <span className="skeleton-line short" />
          </div>
        )}
        {status === 'error' && (
          <div className="inline-state" role="alert">
            <span>Could not load this chat’s tickets: {error}</span>
            <button type="button" className="link-btn" onClick={onRetry}>
              Retry
            </button>
          </div>
        )}
        {status === 'ready' && sorted.length === 0 && (
          <p className="muted small">No tickets for this chat yet. Open a message’s menu (⋯ or right click) and choose “Create ticket”.</p>
        )}
        <ul className="chat-ticket-list">
          {sorted.map((t) => (
            <li key={t.ticket_id} className={`chat-ticket ${t.status === 'closed' ? 'is-closed' : ''}`} data-testid="chat-ticket" data-ticket-id={t.ticket_id} data-status={t.status}>
              <Link className="chat-ticket-subject" to={`/tickets?ticket=${encodeURIComponent(t.ticket_id)}`} title="Open the ticket">
                {t.subject}
              </Link>
              <div className="chat-ticket-meta">
                <span className="mono muted">{ticketRef(t.ticket_id)}</span>
                <PriorityTag priority={t.priority} />
                {t.due_date !== null && <span className={isOverdue(t) ? 'overdue' : 'muted'}>Due {dueText(t.due_date)}</span>}
              </div>
              <div className="chat-ticket-meta">
                <span className="muted small assignee-text" title={t.assignee ?? 'Unassigned'}>
                  {t.assignee ?? 'Unassigned'}
                </span>
                <TicketLabels ids={t.labels} />
              </div>
              <label className="chat-ticket-status">
                <span className="visually-hidden">Status of {t.subject}</span>
                <select value={t.status} onChange={(e) => void setStatus(t, e.target.value as TicketStatus)} data-testid="chat-ticket-status" className={`status-select status-${t.status}`}>
                  <Options options={STATUS_OPTIONS} />
                </select>
              </label>
            </li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
