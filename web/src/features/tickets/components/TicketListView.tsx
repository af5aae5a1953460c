/**
 * The /tickets list: skeleton, error with Retry, empty states (with 'Clear filters' when filters
 * hide everything), then the rows (select, open, status, ref, priority, chat, assignee, due, age,
 * labels) and 'Load more' with the cursor.
 */
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { useSession } from '../../../app/session.tsx';
import { chatNumber, exactTime, formatPhone } from '../../../lib/format.ts';
import { dueText, isOverdue, relTime, ticketRef } from '../api/tickets.ts';
import { useTickets } from '../hooks/useTickets.tsx';
import type { TicketListState } from '../hooks/useTicketList.ts';
import { PriorityTag, StatusPill, TicketLabels } from './fields.tsx';

export interface TicketListViewProps {
  list: TicketListState;
  filtered: boolean;
  clearFilters: () => void;
  selectedId: string | null;
  open: (id: string) => void;
  checked: Set<string>;
  setChecked: (s: Set<string>) => void;
  toggle: (id: string) => void;
}

export function TicketListView({ list, filtered, clearFilters, selectedId, open, checked, setChecked, toggle }: TicketListViewProps) {
  const { user } = useSession();
  const { labelsById } = useTickets();
  const { tickets, status, error, cursor, more, reload: load, loadMore } = list;
  const allChecked = tickets.length > 0 && tickets.every((t: Ticket) => checked.has(t.ticket_id));
  return (
    <div className="ticket-list-wrap">
      {status === 'loading' && <ListSkeleton rows={6} label="Loading tickets" />}
      {status === 'error' && <LoadError what="tickets" error={error} onRetry={load} />}
      {status === 'ready' && tickets.length === 0 && (
        <div className="state-box empty" data-testid="tickets-empty">
          {filtered ? (
            <>
              <p>No tickets match these filters.</p>
              <button
                type="button"
                className="btn"
                onClick={clearFilters}
              >
                Clear filters
              </button>
            </>
          ) : (
            <>
              <p>No tickets yet.</p>
              <p className="muted small">In a chat, open a message’s menu (⋯ or right click) and choose “Create ticket”.</p>
            </>
          )}
        </div>
      )}
      {status === 'ready' && tickets.length > 0 && (
        <>
          <div className="ticket-list-head">
            <label className="check">
              <input
                type="checkbox"
                checked={allChecked}
                onChange={() => setChecked(allChecked ? new Set() : new Set(tickets.map((t) => t.ticket_id)))}
                aria-label="Select all loaded tickets"
                data-testid="tickets-select-all"
              />
            </label>
            <span className="muted small">
              {tickets.length}
              {cursor ? '+' : ''} ticket{tickets.length === 1 && !cursor ? '' : 's'}
            </span>
          </div>
          <ul className="ticket-list" aria-label="Ticket list">
            {tickets.map((t) => (
              <li
                key={t.ticket_id}
                className={`ticket-row ${selectedId === t.ticket_id ? 'selected' : ''} ${checked.has(t.ticket_id) ? 'checked' : ''}`}
                data-testid="ticket-row"
                data-ticket-id={t.ticket_id}
                data-status={t.status}
              >
                <label className="check">
                  <input type="checkbox" checked={checked.has(t.ticket_id)} onChange={() => toggle(t.ticket_id)} aria-label={`Select ${t.subject}`} />
                </label>
                <button type="button" className="ticket-row-open" onClick={() => open(t.ticket_id)} aria-current={selectedId === t.ticket_id ? 'true' : undefined}>
                  <span className="ticket-row-top">
                    <span className="ticket-subject">{t.subject}</span>
                    <StatusPill status={t.status} />
                  </span>
                  <span className="ticket-row-meta">
                    <span className="mono">{ticketRef(t.ticket_id)}</span>
                    <PriorityTag priority={t.priority} />
                    <span className="ticket-chat" title={chatNumber(t.chat_id)}>
                      {t.chat_name || formatPhone(chatNumber(t.chat_id))}
                    </span>
                    <span className={t.assignee ? '' : 'muted'} title="Assignee">
                      {t.assignee === user.email ? 'Me' : (t.assignee ?? 'Unassigned')}
                    </span>
                    {t.due_date !== null && <span className={isOverdue(t) ? 'overdue' : ''}>Due {dueText(t.due_date)}</span>}
                    <time title={exactTime(t.created_at)} dateTime={new Date(t.created_at).toISOString()}>
                      {relTime(t.created_at)}
                    </time>
                  </span>
                  {t.labels.some((l) => labelsById.has(l)) && (
                    <span className="ticket-row-labels">
                      <TicketLabels ids={t.labels} />
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
          <div className="list-more">
            {cursor ? (
              <button type="button" className="btn" onClick={loadMore} disabled={more === 'loading'} data-testid="tickets-load-more">
                {more === 'loading' ? 'Loading…' : more === 'error' ? 'Could not load more. Retry' : 'Load more'}
              </button>
            ) : (
              tickets.length > 10 && <span className="muted small">That’s all the tickets.</span>
            )}
          </div>
        </>
      )}
    </div>
  );
}
