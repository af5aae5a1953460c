/** The dialog's query: debounced text (spec §9, 500 ms) and filters -> GET /search through TanStack Query. */
import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { DEBOUNCE_MS, searchKeys, searchParams, type SearchFilters } from '../api/search.ts';

export function useDebounced<T>(value: T, ms = DEBOUNCE_MS): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

export function useSearch(orgId: string, text: string, filters: SearchFilters) {
  const q = useDebounced(text);
  const params = searchParams(q, filters);
  const query = useQuery({
    queryKey: searchKeys.query(orgId, params),
    queryFn: () => api.search(orgId, params),
    enabled: params.q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  return { ...query, pending: text.trim() !== q.trim() || query.isFetching, active: params.q.length > 0 };
}
