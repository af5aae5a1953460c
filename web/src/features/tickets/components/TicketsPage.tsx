/**
 * /tickets: the ticket list with filters (status, priority, assignee incl. 'me' and unassigned,
 * label, phone, due date range), sort, subject search (debounced 500 ms), cursor pagination
 * ('Load more'), multi-select bulk status / assignee change (POST /tickets/bulk, failures listed
 * per ticket) and the detail panel (?ticket=<id>). Filters live in the URL. Kept live from
 * ticket.* events. On phones one pane at a time (list, or the open ticket).
 */
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { BulkUpdateResult, Ticket, TicketStatus } from '#shared/ticket/ticket.schemas.ts';
import { MAX_BULK_TICKETS, TICKET_SORTS } from '#shared/ticket/ticket.schemas.ts';
import { api, errorMessage, type TicketListParams } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useInbox } from '../../../app/inbox.tsx';
import { useTickets } from '../hooks/useTickets.tsx';
import { useToast } from '../../../app/toast.tsx';
import { MenuButton } from '../../../app/shell/MenuButton.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { chatNumber, exactTime, formatPhone } from '../../../lib/format.ts';
import {
  EMPTY_FILTERS,
  PRIORITY_OPTIONS,
  SORT_LABELS,
  STATUS_OPTIONS,
  appendTickets,
  applyTicket,
  dayToMs,
  dueText,
  isOverdue,
  isTicketSort,
  relTime,
  ticketRef,
  type TicketFilters,
} from '../api/tickets.ts';
import { PriorityTag, StatusPill, TicketLabels, useKnownAssignees } from './fields.tsx';
import { TicketDetail } from './TicketDetail.tsx';

const PAGE = 50;
const SEARCH_DEBOUNCE_MS = 500;
const FILTER_KEYS = ['status', 'priority', 'assignee', 'label', 'phone_id', 'due_from', 'due_to', 'q'] as const;

function filtersFrom(params: URLSearchParams): TicketFilters {
  const f: TicketFilters = { ...EMPTY_FILTERS };
  for (const k of FILTER_KEYS) f[k] = params.get(k) ?? '';
  const sort = params.get('sort');
  f.sort = isTicketSort(sort) ? sort : 'created_desc';
  return f;
}

function toQuery(f: TicketFilters): TicketListParams {
  return {
    status: f.status || undefined,
    priority: f.priority || undefined,
    assignee: f.assignee || undefined,
    label: f.label || undefined,
    phone_id: f.phone_id || undefined,
    due_from: dayToMs(f.due_from),
    due_to: dayToMs(f.due_to, true),
    q: f.q.trim() || undefined,
    sort: f.sort,
    limit: PAGE,
  };
}

export function TicketsPage() {
  const { org, user } = useSession();
  const { subscribe } = useInbox();
  const { settings, labelsById } = useTickets();
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFrom(params), [params]);
  const filtersKey = JSON.stringify(filters);
  const selectedId = params.get('ticket');

  const [tickets, setTickets] = useState<Ticket[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [error, setError] = useState<string | null>(null);
  const [more, setMore] = useState<'idle' | 'loading' | 'error'>('idle');
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [bulkBusy, setBulkBusy] = useState(false);
  const [bulkResult, setBulkResult] = useState<BulkUpdateResult | null>(null);
  const [bulkAssignee, setBulkAssignee] = useState('');
  const [showFilters, setShowFilters] = useState(false);
  const [q, setQ] = useState(filters.q);
  const gen = useRef(0);
  const ticketsRef = useRef<Ticket[]>([]);
  ticketsRef.current = tickets;
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  const setParam = useCallback(
    (changes: Record<string, string | null>) => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(changes)) {
            if (v === null || v === '') next.delete(k);
            else next.set(k, v);
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  // search: debounced into the URL
  useEffect(() => setQ(filters.q), [filters.q]);
  useEffect(() => {
    if (q === filters.q) return;
    const t = setTimeout(() => setParam({ q }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [q, filters.q, setParam]);

  const load = useCallback(() => {
    const n = ++gen.current;
    setStatus('loading');
    setError(null);
    setMore('idle');
    api
      .listTickets(org.org_id, toQuery(filtersRef.current))
      .then((p) => {
        if (n !== gen.current) return;
        setTickets(p.items);
        setCursor(p.cursor);
        setStatus('ready');
      })
      .catch((e) => {
        if (n !== gen.current) return;
        setError(errorMessage(e));
        setStatus('error');
      });
  }, [org.org_id]);

  useEffect(() => load(), [load, filtersKey]);
  useEffect(() => setChecked(new Set()), [filtersKey]);

  const loadMore = () => {
    if (!cursor || more === 'loading') return;
    const n = gen.current;
    setMore('loading');
    api
      .listTickets(org.org_id, { ...toQuery(filters), cursor })
      .then((p) => {
        if (n !== gen.current) return;
        setTickets((prev) => appendTickets(prev, p.items));
        setCursor(p.cursor);
        setMore('idle');
      })
      .catch(() => n === gen.current && setMore('error'));
  };

  const apply = useCallback((t: Ticket) => setTickets((prev) => applyTicket(prev, t, filtersRef.current, user.email)), [user.email]);
  /** a local change (optimistic / answer / rollback): replace as is when listed */
  const replace = useCallback(
    (t: Ticket) =>
      setTickets((prev) => {
        const i = prev.findIndex((x) => x.ticket_id === t.ticket_id);
        if (i < 0) return prev;
        const out = prev.slice();
        out[i] = t;
        return out;
      }),
    [],
  );

  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind === 'ticket') apply(e.ticket);
        else if (e.kind === 'resync') load();
      }),
    [subscribe, apply, load],
  );

  const suggestions = useKnownAssignees(tickets);
  const open = (id: string | null) => setParam({ ticket: id });

  // ---- bulk ----------------------------------------------------------------------------
  const toggle = (id: string) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChecked = tickets.length > 0 && tickets.every((t) => checked.has(t.ticket_id));
  const tooMany = checked.size > MAX_BULK_TICKETS;

  async function bulk(change: { status?: TicketStatus; assignee?: string | null }) {
    if (checked.size === 0 || tooMany) return;
    setBulkBusy(true);
    setBulkResult(null);
    try {
      const r = await api.bulkUpdateTickets(org.org_id, { ticket_ids: [...checked], ...change });
      for (const t of r.updated) apply(t);
      setBulkResult(r);
      // keep the failed ones selected (those listed here) so they can be retried
      const listed = new Set(ticketsRef.current.map((t) => t.ticket_id));
      setChecked(new Set(r.failed.map((f) => f.ticket_id).filter((id) => listed.has(id))));
      if (r.failed.length === 0) toast.show(`${r.updated.length} ticket${r.updated.length === 1 ? '' : 's'} updated`, 'success');
      else toast.show(`${r.failed.length} of ${r.failed.length + r.updated.length} tickets could not be updated`, 'error');
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setBulkBusy(false);
    }
  }

  const activeFilters = FILTER_KEYS.filter((k) => k !== 'q' && filters[k]).length;
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
              onClick={() => {
                setQ('');
                setParam(Object.fromEntries(FILTER_KEYS.map((k) => [k, null])));
              }}
            >
              Clear filters
            </button>
          )}
        </div>

        {checked.size > 0 && (
          <div className="bulk-bar" role="region" aria-label="Bulk actions" data-testid="bulk-bar">
            <span className="bulk-count">
              <strong>{checked.size}</strong> selected
            </span>
            <label>
              <span className="visually-hidden">Set status of the selected tickets</span>
              <select
                value=""
                disabled={bulkBusy || tooMany}
                onChange={(e) => e.target.value && void bulk({ status: e.target.value as TicketStatus })}
                data-testid="bulk-status"
              >
                <option value="">Set status…</option>
                {STATUS_OPTIONS.map(([v, l]) => (
                  <option key={v} value={v}>
                    {l}
                  </option>
                ))}
              </select>
            </label>
            <form
              className="bulk-assign"
              onSubmit={(e) => {
                e.preventDefault();
                const a = bulkAssignee.trim().toLowerCase();
                void bulk({ assignee: a === '' || a === 'none' ? null : a === 'me' ? user.email : a });
              }}
            >
              <input
                type="text"
                list="bulk-assignees"
                placeholder="Assign to (email, me, none)"
                aria-label="Assign the selected tickets to"
                value={bulkAssignee}
                onChange={(e) => setBulkAssignee(e.target.value)}
                disabled={bulkBusy || tooMany}
                data-testid="bulk-assignee"
              />
              <datalist id="bulk-assignees">
                {suggestions.map((s) => (
                  <option key={s} value={s} />
                ))}
              </datalist>
              <button type="submit" className="btn small-btn" disabled={bulkBusy || tooMany} data-testid="bulk-assign-submit">
                Assign
              </button>
            </form>
            <button type="button" className="link-btn" onClick={() => setChecked(new Set())}>
              Clear selection
            </button>
            {tooMany && <span className="form-error small">At most {MAX_BULK_TICKETS} tickets at once.</span>}
            {bulkBusy && <span className="muted small">Updating…</span>}
          </div>
        )}
        {bulkResult && bulkResult.failed.length > 0 && (
          <div className="bulk-failures" role="alert" data-testid="bulk-failures">
            <div className="bulk-failures-head">
              <strong>
                {bulkResult.failed.length} ticket{bulkResult.failed.length === 1 ? '' : 's'} not updated
              </strong>
              <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => setBulkResult(null)}>
                <Icon name="close" size={16} />
              </button>
            </div>
            <ul>
              {bulkResult.failed.map((f) => (
                <li key={f.ticket_id}>
                  <span className="mono">{ticketRef(f.ticket_id)}</span> {byId.get(f.ticket_id)?.subject ?? ''} — {f.reason}
                </li>
              ))}
            </ul>
          </div>
        )}

        <div className="ticket-list-wrap">
          {status === 'loading' && <ListSkeleton rows={6} label="Loading tickets" />}
          {status === 'error' && <LoadError what="tickets" error={error} onRetry={load} />}
          {status === 'ready' && tickets.length === 0 && (
            <div className="state-box empty" data-testid="tickets-empty">
              {activeFilters > 0 || filters.q ? (
                <>
                  <p>No tickets match these filters.</p>
                  <button
                    type="button"
                    className="btn"
                    onClick={() => {
                      setQ('');
                      setParam(Object.fromEntries(FILTER_KEYS.map((k) => [k, null])));
                    }}
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
                        <span className="ticket-chat" title={t.chat_id}>
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
      </section>
      {selectedId && <TicketDetail key={selectedId} ticketId={selectedId} onClose={() => open(null)} onTicket={replace} suggestions={suggestions} />}
    </div>
  );
}
