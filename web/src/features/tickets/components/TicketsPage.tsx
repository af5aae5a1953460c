/**
 * /tickets: the ticket list with filters (status, priority, assignee incl. 'me' and unassigned,
 * label, phone, due date range), sort, subject search (debounced 500 ms), cursor pagination
 * ('Load more'), multi-select bulk status / assignee change (POST /tickets/bulk, failures listed
 * per ticket) and the detail panel (?ticket=<id>). Filters live in the URL (useTicketFilters);
 * the list is an infinite query kept live from ticket.* events (useTicketList). On phones one
 * pane at a time (list, or the open ticket).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { BulkUpdateResult } from '#shared/ticket/ticket.schemas.ts';
import { MAX_BULK_TICKETS } from '#shared/ticket/ticket.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { useTicketFilters } from '../hooks/useTicketFilters.ts';
import { useTicketList } from '../hooks/useTicketList.ts';
import { useKnownAssignees } from './fields.tsx';
import { TicketDetail } from './TicketDetail.tsx';
import { TicketFilterBar } from './TicketFilterBar.tsx';
import { TicketBulkBar, TicketBulkFailures, type TicketBulkChange } from './TicketBulkBar.tsx';
import { TicketListView } from './TicketListView.tsx';

export function TicketsPage() {
  const { org, user } = useSession();
  const toast = useToast();
  const { filters, selectedId, q, setQ, setParam, clearFilters, activeFilters } = useTicketFilters();
  const list = useTicketList(org.org_id, filters, user.email);
  const { tickets, apply, replace } = list;
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [bulkBusy, setBulkBusy] = useState(false);
  const [bulkResult, setBulkResult] = useState<BulkUpdateResult | null>(null);
  const [showFilters, setShowFilters] = useState(false);

  useEffect(() => setChecked(new Set()), [filters]);

  const suggestions = useKnownAssignees(tickets);
  const open = useCallback((id: string | null) => setParam({ ticket: id }), [setParam]);
  const toggle = (id: string) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function bulk(change: TicketBulkChange) {
    if (checked.size === 0 || checked.size > MAX_BULK_TICKETS) return;
    setBulkBusy(true);
    setBulkResult(null);
    try {
      const r = await api.bulkUpdateTickets(org.org_id, { ticket_ids: [...checked], ...change });
      for (const t of r.updated) apply(t);
      setBulkResult(r);
      // keep the failed ones selected (those listed here) so they can be retried
      const listed = new Set(tickets.map((t) => t.ticket_id));
      setChecked(new Set(r.failed.map((f) => f.ticket_id).filter((id) => listed.has(id))));
      if (r.failed.length === 0) toast.show(`${r.updated.length} ticket${r.updated.length === 1 ? '' : 's'} updated`, 'success');
      else toast.show(`${r.failed.length} of ${r.failed.length + r.updated.length} tickets could not be updated`, 'error');
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setBulkBusy(false);
    }
  }

  const assigneeOptions = useMemo(() => {
    const s = new Set(suggestions.filter((x) => x !== user.email));
    if (filters.assignee && !['me', 'none'].includes(filters.assignee)) s.add(filters.assignee);
    return [...s].sort();
  }, [suggestions, user.email, filters.assignee]);
  const byId = useMemo(() => new Map(tickets.map((t) => [t.ticket_id, t])), [tickets]);

  return (
    <div className={`tickets-page ${selectedId ? 'has-detail' : ''}`}>
      <section className="tickets-main" aria-label="Tickets">
        <header className="pane-header tickets-header">
          <MenuButton />
          <h1>Tickets</h1>
          <label className="search-box">
            <span className="visually-hidden">Search tickets by subject</span>
            <input type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Search subject" maxLength={100} data-testid="tickets-search" />
          </label>
          <button
            type="button"
            className={`icon-btn filters-toggle ${showFilters || activeFilters ? 'active' : ''}`}
            aria-expanded={showFilters}
            aria-controls="ticket-filters"
            aria-label={`Filters${activeFilters ? `, ${activeFilters} active` : ''}`}
            onClick={() => setShowFilters((v) => !v)}
          >
            <Icon name="filter" size={18} />
            {activeFilters > 0 && <span className="icon-badge">{activeFilters}</span>}
          </button>
        </header>


        <TicketFilterBar filters={filters} setParam={setParam} showFilters={showFilters} activeFilters={activeFilters} assigneeOptions={assigneeOptions} clearFilters={clearFilters} />
        {checked.size > 0 && <TicketBulkBar checked={checked} setChecked={setChecked} bulkBusy={bulkBusy} bulk={(change) => void bulk(change)} suggestions={suggestions} />}
        {bulkResult && bulkResult.failed.length > 0 && <TicketBulkFailures result={bulkResult} byId={byId} onDismiss={() => setBulkResult(null)} />}
        <TicketListView list={list} filtered={activeFilters > 0 || !!filters.q} clearFilters={clearFilters} selectedId={selectedId} open={open} checked={checked} setChecked={setChecked} toggle={toggle} />
      </section>
      {selectedId && <TicketDetail key={selectedId} ticketId={selectedId} onClose={() => open(null)} onTicket={replace} suggestions={suggestions} />}
    </div>
  );
}
