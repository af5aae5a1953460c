/**
 * One paged log table (the /logs tabs: audit, API requests, rules, AI): loading, error with Retry,
 * empty text, a table from column definitions, and "Load more" over a TanStack infinite query
 * (cursor paging by the API). Filters go in `filters` above the table. Styles: ui.css `.paged-log`.
 */
import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api.ts';

/** What PagedLog needs of a `useInfiniteQuery` result. */
export interface PagedQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

export interface LogColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** keep the cell on one line (times) */
  nowrap?: boolean;
}

export function PagedLog<T>({
  q,
  rows,
  columns,
  rowKey,
  empty,
  filters,
  testId,
  rowProps,
}: {
  q: PagedQuery;
  rows: T[];
  columns: Array<LogColumn<T>>;
  rowKey: (row: T) => string;
  empty: string;
  filters?: ReactNode;
  testId: string;
  /** extra attributes of a row (data-testid, data-*) */
  rowProps?: (row: T) => Record<string, string>;
}) {
  let body: ReactNode;
  if (q.isPending) body = <p className="muted">Loading…</p>;
  else if (q.isError)
    body = (
      <div className="inline-state" role="alert">
        <span>Could not load the log: {errorMessage(q.error)}</span>
        <button type="button" className="link-btn" onClick={() => void q.refetch()}>
          Retry
        </button>
      </div>
    );
  else if (!rows.length)
    body = (
      <p className="muted" data-testid="log-empty">
        {empty}
      </p>
    );
  else
    body = (
      <>
        <div className="paged-log-scroll">
          <table className="paged-log-table" data-testid={testId}>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.header} scope="col">
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={rowKey(r)} {...(rowProps?.(r) ?? {})}>
                  {columns.map((c) => (
                    <td key={c.header} className={c.nowrap ? 'nowrap' : undefined}>
                      {c.cell(r)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {q.hasNextPage && (
          <button type="button" className="btn paged-log-more" disabled={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
            {q.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </button>
        )}
      </>
    );
  return (
    <div className="paged-log">
      {filters && <div className="paged-log-filters">{filters}</div>}
      {body}
    </div>
  );
}
