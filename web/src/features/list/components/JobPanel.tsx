/**
 * Progress and outcome of the current bulk job: a progress bar while it runs (updated live from
 * `bulk_job.updated`), then a summary ('Labelled 480 chats, 3 failed') with the failed chats and
 * their reasons behind a disclosure, and Undo for assign / label / unlabel jobs.
 */
import type { BulkJob } from '#shared/bulk/bulk-job.schemas.ts';
import { isFinished, jobSummary, undoProblem } from '#shared/bulk/bulk-job.rules.ts';
import { Icon } from '../../../components/ui/Icon.tsx';

export function JobPanel({
  job,
  viewer,
  nameOf,
  undoing,
  onUndo,
  onDismiss,
}: {
  job: BulkJob;
  viewer: { email: string; role: 'admin' | 'member' };
  /** display name of a chat id (masked as the viewer must see it) */
  nameOf: (chatId: string) => string;
  undoing: boolean;
  onUndo: () => void;
  onDismiss: () => void;
}) {
  const finished = isFinished(job);
  const canUndo = undoProblem(job, viewer) === null;
  const summary = jobSummary(job);
  const pct = job.total > 0 ? Math.min(100, Math.round((job.processed / job.total) * 100)) : 0;
  return (
    <section className={`bulk-job ${finished ? `bulk-job-${job.status}` : 'bulk-job-running'}`} aria-label="Bulk action" data-testid="bulk-job" data-status={job.status} data-job-id={job.job_id}>
      <div className="bulk-job-head">
        <p className="bulk-job-summary" role="status" aria-live="polite" data-testid="bulk-job-summary">
          {summary}
        </p>
        {canUndo && (
          <button type="button" className="btn bulk-btn" disabled={undoing} onClick={onUndo} data-testid="bulk-undo">
            {undoing ? 'Undoing…' : 'Undo'}
          </button>
        )}
        {finished && (
          <button type="button" className="icon-btn" aria-label="Dismiss" onClick={onDismiss} data-testid="bulk-dismiss">
            <Icon name="close" />
          </button>
        )}
      </div>
      {!finished && (
        <div className="bulk-progress" data-testid="bulk-progress">
          <progress max={Math.max(1, job.total)} value={job.processed} aria-label="Progress" />
          <span className="muted small">{pct}%</span>
        </div>
      )}
      {finished && job.failed_count > 0 && (
        <details className="bulk-failures" data-testid="bulk-failures">
          <summary>
            {job.failed_count.toLocaleString('en-US')} chat{job.failed_count === 1 ? '' : 's'} could not be changed
          </summary>
          <ul>
            {job.failures.map((f) => (
              <li key={f.chat_id} data-testid="bulk-failure">
                <span className="bulk-failure-chat">{nameOf(f.chat_id)}</span>
                <span className="muted">{f.reason}</span>
              </li>
            ))}
          </ul>
          {job.failed_count > job.failures.length && <p className="muted small">…and {(job.failed_count - job.failures.length).toLocaleString('en-US')} more.</p>}
        </details>
      )}
    </section>
  );
}
