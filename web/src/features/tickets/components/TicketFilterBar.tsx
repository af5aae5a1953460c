/** The /tickets filters and sort (status, priority, assignee, label, number, due range), shown on demand. */
import { TICKET_SORTS } from '#shared/ticket/ticket.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { formatPhone } from '../../../lib/format.ts';
import { PRIORITY_OPTIONS, SORT_LABELS, STATUS_OPTIONS, type TicketFilters } from '../api/tickets.ts';
import { useTickets } from '../hooks/useTickets.tsx';

export interface TicketFilterBarProps {
  filters: TicketFilters;
  setParam: (changes: Record<string, string | null>) => void;
  showFilters: boolean;
  activeFilters: number;
  assigneeOptions: string[];
  clearFilters: () => void;
}

export function TicketFilterBar({ filters, setParam, showFilters, activeFilters, assigneeOptions, clearFilters }: TicketFilterBarProps) {
  const { org } = useSession();
  const { settings } = useTickets();
  return (
    <div id="ticket-filters" className={`ticket-filters ${showFilters ? 'shown' : ''}`} role="group" aria-label="Filters and sort">
      <label>
        <span>Status</span>
        <select value={filters.status} onChange={(e) => setParam({ status: e.target.value })} data-testid="filter-status">
          <option value="">Any</option>
          {STATUS_OPTIONS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Priority</span>
        <select value={filters.priority} onChange={(e) => setParam({ priority: e.target.value })} data-testid="filter-priority">
          <option value="">Any</option>
          {PRIORITY_OPTIONS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span>Assignee</span>
        <select value={filters.assignee} onChange={(e) => setParam({ assignee: e.target.value })} data-testid="filter-assignee">
          <option value="">Anyone</option>
          <option value="me">Me</option>
          <option value="none">Unassigned</option>
          {assigneeOptions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      {settings.labels.length > 0 && (
        <label>
          <span>Label</span>
          <select value={filters.label} onChange={(e) => setParam({ label: e.target.value })} data-testid="filter-label">
            <option value="">Any</option>
            {settings.labels.map((l) => (
              <option key={l.label_id} value={l.label_id}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {org.phones.length > 1 && (
        <label>
          <span>Number</span>
          <select value={filters.phone_id} onChange={(e) => setParam({ phone_id: e.target.value })} data-testid="filter-phone">
            <option value="">All numbers</option>
            {org.phones.map((p) => (
              <option key={p.phone_id} value={p.phone_id}>
                {formatPhone(p.org_phone)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        <span>Due from</span>
        <input type="date" value={filters.due_from} max={filters.due_to || undefined} onChange={(e) => setParam({ due_from: e.target.value })} />
      </label>
      <label>
        <span>Due to</span>
        <input type="date" value={filters.due_to} min={filters.due_from || undefined} onChange={(e) => setParam({ due_to: e.target.value })} />
      </label>
      <label>
        <span>Sort</span>
        <select value={filters.sort} onChange={(e) => setParam({ sort: e.target.value === 'created_desc' ? null : e.target.value })} data-testid="tickets-sort">
          {TICKET_SORTS.map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </label>
      {(activeFilters > 0 || filters.q) && (
        <button
          type="button"
          className="link-btn clear-filters"
          onClick={clearFilters}
        >
          Clear filters
        </button>
      )}
    </div>
  );
}
