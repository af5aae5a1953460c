import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A newest-first, cursor-paged log (ticket and task audit logs): first page on mount and when
 * `key` changes, `reload(quiet)` for live refreshes (quiet keeps the list on screen and ignores
 * errors), `loadMore()` appends the next page without duplicates (by `idOf`). A late answer for an
 * older request never overwrites a newer one.
 * @param fetchPage one page: `cursor` undefined for the first
 */
export function usePagedLog<T>(key: string | null, fetchPage: (cursor?: string) => Promise<{ items: T[]; cursor: string | null }>, idOf: (item: T) => string) {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [more, setMore] = useState<'idle' | 'loading' | 'error'>('idle');
  const seq = useRef(0);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;

  const reload = useCallback(
    (quiet: boolean) => {
      if (!key) return;
      const n = ++seq.current;
      if (!quiet) setState('loading');
      fetchRef
        .current()
        .then((p) => {
          if (n !== seq.current) return;
          setItems(p.items);
          setCursor(p.cursor);
          setState('ready');
        })
        .catch(() => {
          if (n === seq.current && !quiet) setState('error');
        });
    },
    [key],
  );
  useEffect(() => reload(false), [reload]);

  const loadMore = () => {
    if (!key || !cursor) return;
    setMore('loading');
    fetchRef
      .current(cursor)
      .then((p) => {
        setItems((prev) => [...prev, ...p.items.filter((x) => !prev.some((y) => idOf(y) === idOf(x)))]);
        setCursor(p.cursor);
        setMore('idle');
      })
      .catch(() => setMore('error'));
  };

  return { items, cursor, state, more, reload, loadMore };
}
