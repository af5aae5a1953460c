/**
 * Progress of the background jobs that clear property values after an option was removed or a
 * property deleted (issue 15 item 4; GET /chats/bulk-jobs/{job_id}, polled every second until the
 * job is finished). One bar per job with its summary (shared/bulk/bulk-job.rules.ts jobSummary);
 * once every job is finished the panel says so and can be dismissed.
 */
import { useQueries } from '@tanstack/react-query';
import { isFinished, jobSummary } from '#shared/bulk/bulk-job.rules.ts';
import type { BulkJob } from '#shared/bulk/bulk-job.schemas.ts';
import { propertiesApi } from '../../contacts/index.ts';

export function CleanupProgress({ orgId, what, jobIds, onDismiss }: { orgId: string; what: string; jobIds: string[]; onDismiss: () => void }) {
  const jobs = useQueries({
    queries: jobIds.map((id) => ({
      queryKey: ['orgs', orgId, 'bulk-jobs', id],
      queryFn: () => propertiesApi.job(orgId, id),
      refetchInterval: (q: { state: { data?: BulkJob } }) => (q.state.data && isFinished(q.state.data) ? false : 1000),
    })),
  });
  const done = jobs.every((j) => j.data && isFinished(j.data));
  return (
    <section className="settings-section cleanup-progress" aria-live="polite" data-testid="property-cleanup">
      <h2>{done ? `Cleared: ${what}` : `Clearing ${what} from chats and contacts…`}</h2>
      {jobs.map((j, i) => (
        <div key={jobIds[i]} className="cleanup-job">
          {j.data ? (
            <>
              <progress max={Math.max(1, j.data.total)} value={isFinished(j.data) ? Math.max(1, j.data.total) : j.data.processed} aria-label={`${what}: progress`} />
              <span className="muted small">{jobSummary(j.data)}</span>
            </>
          ) : j.isError ? (
            <span className="form-error">Could not read the progress. It goes on in the background.</span>
          ) : (
            <span className="muted small">Starting…</span>
          )}
        </div>
      ))}
      {done && (
        <button type="button" className="btn btn-ghost" onClick={onDismiss} data-testid="property-cleanup-dismiss">
          Dismiss
        </button>
      )}
    </section>
  );
}
