/**
 * Loading and error states shared by the long lists (chats, tickets, tasks): skeleton rows while
 * the first page loads, and an error box with Retry in words a person understands.
 */
export function ListSkeleton({ rows, label, avatar = false }: { rows: number; label: string; avatar?: boolean }) {
  return (
    <div className="list-skeleton" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <div className="skeleton-row" key={i}>
          {avatar && <span className="skeleton-avatar" />}
          <span className="skeleton-lines">
            <span className="skeleton-line" style={{ width: `${50 + ((i * 17) % 35)}%` }} />
            <span className="skeleton-line short" style={{ width: `${30 + ((i * 23) % 40)}%` }} />
          </span>
        </div>
      ))}
    </div>
  );
}

/** 'Could not load {what}: {error}' with a Retry button. */
export function LoadError({ what, error, onRetry }: { what: string; error: string | null | undefined; onRetry: () => void }) {
  return (
    <div className="state-box" role="alert">
      <p>
        Could not load {what}: {error}
      </p>
      <button type="button" className="btn" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
