/**
 * The task panel (spec §2): a slide-over on the right (full screen on phones) opened from the
 * tasks button. Header: 'Edit Task', 'New Task', 'Audit Log', or in the list a My Tasks / All
 * Tasks switch for admins (members see 'My Tasks' only). Esc closes it (inner widgets that use
 * Esc consume it first). It stays mounted while closed so a draft survives closing and reopening.
 */
import { useEffect, useRef, useState } from 'react';
import { useTasks } from '../hooks/useTasks.tsx';
import { useSession } from '../../../app/session.tsx';
import { api, errorMessage } from '../../../lib/api.ts';
import { Icon } from '../../../components/ui/Icon.tsx';
import { TaskList } from './TaskList.tsx';
import { TaskEditor } from './TaskEditor.tsx';
import { TaskAudit } from './TaskAudit.tsx';
import type { Task } from '#shared/task/task.schemas.ts';

export function TaskPanel() {
  const { open, view, closePanel, showList, openEdit, isAdmin, scope, setScope, tasks, markNotificationsRead } = useTasks();
  const { org } = useSession();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  // focus in on open, back to where it was on close
  useEffect(() => {
    if (open) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      requestAnimationFrame(() => {
        if (!panelRef.current?.contains(document.activeElement)) headingRef.current?.focus({ preventScroll: true });
      });
      markNotificationsRead();
    } else if (returnTo.current) {
      const el = returnTo.current;
      returnTo.current = null;
      if (document.contains(el) && (!document.activeElement || document.activeElement === document.body || panelRef.current?.contains(document.activeElement))) el.focus({ preventScroll: true });
    }
  }, [open, markNotificationsRead]);

  useEffect(() => {
    if (open && (view.kind === 'list' || view.kind === 'audit')) headingRef.current?.focus({ preventScroll: true });
  }, [open, view.kind]);

  // Esc closes (after anything inside that uses Esc itself)
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (document.querySelector('dialog[open]')) return;
      e.preventDefault();
      closePanel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, closePanel]);

  // the task of the edit / audit view: from the list, else fetched
  const viewTaskId = view.kind === 'edit' || view.kind === 'audit' ? view.taskId : null;
  const listed = viewTaskId ? (tasks.find((t) => t.task_id === viewTaskId) ?? null) : null;
  const [fetched, setFetched] = useState<{ id: string; task: Task | null; error: string | null } | null>(null);
  useEffect(() => {
    if (!viewTaskId || listed || !open) return;
    if (fetched?.id === viewTaskId) return;
    setFetched({ id: viewTaskId, task: null, error: null });
    api
      .getTask(org.org_id, viewTaskId)
      .then((t) => setFetched({ id: viewTaskId, task: t, error: null }))
      .catch((e) => setFetched({ id: viewTaskId, task: null, error: errorMessage(e) }));
  }, [viewTaskId, listed, open, org.org_id, fetched?.id]);
  const viewTask = listed ?? (fetched?.id === viewTaskId ? fetched.task : null);
  // keep a fetched task fresh from the list's upserts when it shows up there later
  useEffect(() => {
    if (listed && fetched?.id === listed.task_id) setFetched(null);
  }, [listed, fetched?.id]);

  const title = view.kind === 'edit' ? 'Edit Task' : view.kind === 'new' ? 'New Task' : view.kind === 'audit' ? 'Audit Log' : scope === 'all' ? 'All Tasks' : 'My Tasks';

  return (
    <aside ref={panelRef} id="task-panel" className={`task-panel ${open ? 'open' : ''}`} hidden={!open} data-testid="task-panel" data-view={view.kind} aria-labelledby="task-panel-title" role="dialog" aria-modal="false">
      <header className="task-panel-head">
        {view.kind !== 'list' && (
          <button
            type="button"
            className="icon-btn"
            aria-label="Back"
            data-testid="task-back"
            onClick={() => (view.kind === 'audit' && view.back === 'edit' ? openEdit(view.taskId) : showList())}
          >
            <Icon name="back" />
          </button>
        )}
        {view.kind === 'list' && isAdmin ? (
          <>
            <h2 id="task-panel-title" ref={headingRef} tabIndex={-1} className="visually-hidden">
              {title}
            </h2>
            <div className="scope-switch" role="group" aria-label="Which tasks" data-testid="task-scope-switch" data-scope={scope}>
              <button type="button" aria-pressed={scope === 'mine'} className={scope === 'mine' ? 'on' : ''} data-testid="task-scope-mine" onClick={() => setScope('mine')}>
                My Tasks
              </button>
              <button type="button" aria-pressed={scope === 'all'} className={scope === 'all' ? 'on' : ''} data-testid="task-scope-all" onClick={() => setScope('all')}>
                All Tasks
              </button>
            </div>
          </>
        ) : (
          <h2 id="task-panel-title" ref={headingRef} tabIndex={-1}>
            {title}
          </h2>
        )}
        <button type="button" className="icon-btn task-panel-close" aria-label="Close tasks (Esc)" title="Close tasks (Esc)" data-testid="task-panel-close" onClick={closePanel}>
          <Icon name="close" />
        </button>
      </header>
      <div className="task-panel-body">
        {view.kind === 'list' && <TaskList />}
        {view.kind === 'new' && <TaskEditor key={`new-${view.seq}`} mode="new" task={null} prefill={view.prefill} />}
        {view.kind === 'edit' &&
          (viewTask ? (
            <TaskEditor key={`edit-${view.taskId}`} mode="edit" task={viewTask} />
          ) : fetched?.error ? (
            <div className="state-box" role="alert">
              <p>Could not load this task: {fetched.error}</p>
              <button type="button" className="btn" onClick={showList}>
                Back to tasks
              </button>
            </div>
          ) : (
            <div className="detail-body" aria-busy="true" aria-label="Loading task">
              <span className="skeleton-line" style={{ width: '70%', height: 20 }} />
              <span className="skeleton-line" style={{ width: '45%' }} />
            </div>
          ))}
        {view.kind === 'audit' && <TaskAudit key={view.taskId} taskId={view.taskId} task={viewTask} />}
      </div>
    </aside>
  );
}
