/**
 * A task's audit log view (GET /tasks/{id}/audit, newest first, cursor paged) with spec §8's words:
 * 'Loading logs...', 'No audit logs found', 'Failed to fetch audit logs' (and 'Select a ticket to
 * view audit logs' without a task). Each row: who, what (the action in words, old -> new), when
 * (auditTimeText, exact time on hover) and the task title shortened (shortenTitle). TASK_UPDATED
 * rows are hidden from the list and the count (isVisibleAuditAction).
 */
import { useEffect } from 'react';
import { usePagedLog } from '../../../lib/usePagedLog.ts';
import type { Task, TaskAuditLogRow } from '#shared/task/task.schemas.ts';
import { auditTimeText, isVisibleAuditAction, shortenTitle } from '#shared/task/task.rules.ts';
import { api } from '../../../lib/api.ts';
import { exactTime } from '../../../lib/format.ts';
import { AUDIT_ACTION_LABELS, auditChange, memberLabel } from '../api/tasks.ts';
import { useSession } from '../../../app/session.tsx';
import { useInbox } from '../../../app/inbox.tsx';
import { useAssignableMembers } from '../hooks/useAssignableMembers.ts';
import { useTasks } from '../hooks/useTasks.tsx';
import { useNow } from '../hooks/useNow.ts';

export function TaskAudit({ taskId, task }: { taskId: string | null; task: Task | null }) {
  const { org, user } = useSession();
  const { subscribe } = useInbox();
  const { open } = useTasks();
  const members = useAssignableMembers();
  const now = useNow(30_000, open);
  const { items: rows, cursor, state, more, reload: load, loadMore } = usePagedLog<TaskAuditLogRow>(
    taskId,
    (c) => api.taskAudit(org.org_id, taskId!, c),
    (r) => r.log_id,
  );

  // the task changed while the log is shown: refetch (quietly)
  useEffect(() => {
    let t: ReturnType<typeof setTimeout> | null = null;
    const off = subscribe((e) => {
      if ((e.kind === 'task' && e.task.task_id === taskId) || e.kind === 'resync') {
        if (t) clearTimeout(t);
        t = setTimeout(() => load(true), 300);
      }
    });
    return () => {
      off();
      if (t) clearTimeout(t);
    };
  }, [subscribe, taskId, load]);


  if (!taskId) return <p className="muted small task-audit-state">Select a ticket to view audit logs</p>;
  const shown = rows.filter((r) => isVisibleAuditAction(r.action)).sort((a, b) => b.timestamp - a.timestamp);

  return (
    <div className="task-audit" data-testid="task-audit">
      {task && (
        <p className="task-audit-title">
          <strong title={task.title}>{shortenTitle(task.title)}</strong>
          {state === 'ready' && (
            <span className="muted small" data-testid="task-audit-count">
              {' '}
              · {shown.length}
              {cursor ? '+' : ''} {shown.length === 1 && !cursor ? 'entry' : 'entries'}
            </span>
          )}
        </p>
      )}
      {state === 'loading' && (
        <p className="muted small task-audit-state" role="status">
          Loading logs...
        </p>
      )}
      {state === 'error' && (
        <p className="inline-state" role="alert">
          Failed to fetch audit logs{' '}
          <button type="button" className="link-btn" onClick={() => load(false)}>
            Retry
          </button>
        </p>
      )}
      {state === 'ready' && shown.length === 0 && <p className="muted small task-audit-state">No audit logs found</p>}
      {state === 'ready' && shown.length > 0 && (
        <ol className="audit-list task-audit-list">
          {shown.map((r) => {
            const change = auditChange(r, members);
            const title = r.new_record?.title ?? r.old_record?.title ?? task?.title ?? '';
            return (
              <li key={r.log_id} className="audit-entry task-audit-row" data-testid="task-audit-row" data-action={r.action}>
                <span>
                  <strong>{memberLabel(r.performed_by, members, user.email)}</strong> {AUDIT_ACTION_LABELS[r.action] ?? r.action.toLowerCase().replace(/_/g, ' ')}
                  {r.action !== 'TITLE_CHANGED' && title && (
                    <>
                      {' '}
                      of <em title={title}>{shortenTitle(title)}</em>
                    </>
                  )}
                </span>
                {change && (
                  <span className="audit-change">
                    <span className="audit-old">{change.from}</span>
                    <span aria-label="changed to"> → </span>
                    <span className="audit-new">{change.to}</span>
                  </span>
                )}
                <time className="muted small" dateTime={new Date(r.timestamp).toISOString()} title={exactTime(r.timestamp)}>
                  {auditTimeText(r.timestamp, now)}
                </time>
              </li>
            );
          })}
        </ol>
      )}
      {state === 'ready' && cursor && (
        <button type="button" className="link-btn small" onClick={loadMore} disabled={more === 'loading'}>
          {more === 'loading' ? 'Loading logs...' : more === 'error' ? 'Failed to fetch audit logs — retry' : 'Older entries'}
        </button>
      )}
    </div>
  );
}
