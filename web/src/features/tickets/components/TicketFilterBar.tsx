/** The /tickets filters and sort (status, priority, assignee, label, number, due range), shown on demand. */
import { TICKET_SORTS } from '#shared/ticket/ticket.schemas.ts';
import { useSession } from '../../../app/session.tsx';
import { formatPhone } from '../../../lib/format.ts';
import { PRIORITY_OPTIONS, SORT_LABELS, STATUS_OPTIONS, type TicketFilters } from '../api/tickets.ts';
import { useTickets } from '../hooks/useTickets.tsx';
import { Options } from '../../../components/ui/Options.tsx';

export interface TicketFilterBarProps {
  filters: TicketFilters;
  setParam: (changes: Record<string, string | null>) => void;
  showFilters: boolean;
  activeFilters: number;
  assigneeOptions: string[];
  clearFilters: () => void;
}

type Option = readonly [value: string | number, label: string];

/** One labelled filter select; `options` are [value, label] pairs in order. */
function FilterSelect({ label, value, onChange, testId, options }: { label: string; value: string; onChange: (value: string) => void; testId: string; options: readonly Option[] }) {
  return (
    <label>
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        <Options options={options} />
      </select>
    </label>
  );
}

export function TicketFilterBar({ filters, setParam, showFilters, activeFilters, assigneeOptions, clearFilters }: TicketFilterBarProps) {
  const { org } = useSession();
  const { settings } = useTickets();
  return (
    <div id="ticket-filters" className={`ticket-filters ${showFilters ? 'shown' : ''}`} role="group" aria-label="Filters and sort">
      <FilterSelect label="Status" value={filters.status} onChange={(v) => setParam({ status: v })} testId="filter-status" options={[['', 'Any'], ...STATUS_OPTIONS]} />
      <FilterSelect label="Priority" value={filters.priority} onChange={(v) => setParam({ priority: v })} testId="filter-priority" options={[['', 'Any'], ...PRIORITY_OPTIONS]} />
      <FilterSelect
        label="Assignee"
        value={filters.assignee}
        onChange={(v) => setParam({ assignee: v })}
        testId="filter-assignee"
        options={[['', 'Anyone'], ['me', 'Me'], ['none', 'Unassigned'], ...assigneeOptions.map((a): Option => [a, a])]}
      />
      {settings.labels.length > 0 && (
        <FilterSelect
          label="Label"
          value={filters.label}
          onChange={(v) => setParam({ label: v })}
          testId="filter-label"
          options={[['', 'Any'], ...settings.labels.map((l): Option => [l.label_id, l.name])]}
        />
      )}
      {org.phones.length > 1 && (
        <FilterSelect
          label="Number"
          value={filters.phone_id}
          onChange={(v) => setParam({ phone_id: v })}
          testId="filter-phone"
          options={[['', 'All numbers'], ...org.phones.map((p): Option => [p.phone_id, formatPhone(p.org_phone)])]}
        />
      )}
      <label>
        <span>Due from</span>
        <input type="date" value={filters.due_from} max={filters.due_to || undefined} onChange={(e) => setParam({ due_from: e.target.value })} />
      </label>
      <label>
        <span>Due to</span>
        <input type="date" value={filters.due_to} min={filters.due_from || undefined} onChange={(e) => setParam({ due_to: e.target.value })} />
      </label>
      <FilterSelect
        label="Sort"
        value={filters.sort}
        onChange={(v) => setParam({ sort: v === 'created_desc' ? null : v })}
        testId="tickets-sort"
        options={TICKET_SORTS.map((s): Option => [s, SORT_LABELS[s]])}
      />
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
