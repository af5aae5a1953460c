/**
 * The /tickets filters, kept in the URL (status, priority, assignee, label, phone_id, due_from,
 * due_to, q, sort) so a reload or a shared link keeps them; the subject search is typed into
 * `q` and reaches the URL after SEARCH_DEBOUNCE_MS (500 ms) of quiet. `?ticket=<id>` is the open
 * ticket.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { TicketListParams } from '../../../lib/api.ts';
import { EMPTY_FILTERS, dayToMs, isTicketSort, type TicketFilters } from '../api/tickets.ts';

/** GET /tickets page size */
export const PAGE = 50;
const SEARCH_DEBOUNCE_MS = 500;
export const FILTER_KEYS = ['status', 'priority', 'assignee', 'label', 'phone_id', 'due_from', 'due_to', 'q'] as const;

function filtersFrom(params: URLSearchParams): TicketFilters {
  const f: TicketFilters = { ...EMPTY_FILTERS };
  for (const k of FILTER_KEYS) f[k] = params.get(k) ?? '';
  const sort = params.get('sort');
  f.sort = isTicketSort(sort) ? sort : 'created_desc';
  return f;
}

/** The filters as GET /tickets parameters (first page). */
export function toQuery(f: TicketFilters): TicketListParams {
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

export function useTicketFilters() {
  const [params, setParams] = useSearchParams();
  // one object per distinct set of filters (not per URL: opening a ticket keeps them)
  const filtersKey = JSON.stringify(filtersFrom(params));
  const filters = useMemo(() => JSON.parse(filtersKey) as TicketFilters, [filtersKey]);
  const selectedId = params.get('ticket');
  const [q, setQ] = useState(filters.q);

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

  const clearFilters = useCallback(() => {
    setQ('');
    setParam(Object.fromEntries(FILTER_KEYS.map((k) => [k, null])));
  }, [setParam]);
  const activeFilters = FILTER_KEYS.filter((k) => k !== 'q' && filters[k]).length;

  return { filters, selectedId, q, setQ, setParam, clearFilters, activeFilters };
}
