/**
 * Select mode's bar: select all shown, the count, bulk status / assignee / priority and
 * 'Close Task(s)' (POST /tasks/bulk through `onBulk`); and the per-task failures of the last
 * bulk change, dismissable.
 */
import type { Task, TaskPriority, TaskStatus } from '#shared/task/task.schemas.ts';
import type { OrgMember } from '../../../lib/api.ts';
import { Toolbar, ToolbarButton } from '../../../components/ui/Toolbar.tsx';
import { BulkFailures } from '../../../components/ui/BulkFailures.tsx';
import { TASK_PRIORITY_OPTIONS, TASK_STATUS_OPTIONS, memberLabel } from '../api/tasks.ts';
import type { BulkChange } from '../hooks/useTaskChanges.ts';
import { Options } from '../../../components/ui/Options.tsx';

export interface TaskBulkBarProps {
  shown: Task[];
  checked: Set<string>;
  setChecked: (s: Set<string>) => void;
  bulkBusy: boolean;
  bulk: (ids: string[], change: BulkChange) => void;
  members: OrgMember[];
  me: string;
}

/** Select mode's bulk-action bar (the kit's {@link Toolbar}). */
export function TaskBulkBar({ shown, checked, setChecked, bulkBusy, bulk, members, me }: TaskBulkBarProps) {
  const allChecked = shown.length > 0 && shown.every((t) => checked.has(t.task_id));
  return (
    <Toolbar label="Bulk actions" className="bulk-bar task-bulk-bar" testId="task-bulk-bar">
      <label className="check">
        <input
          type="checkbox"
          checked={allChecked}
          onChange={() => setChecked(allChecked ? new Set() : new Set(shown.map((t) => t.task_id)))}
          aria-label="Select all shown tasks"
          data-testid="task-select-all"
        />
      </label>
      <span className="bulk-count" data-testid="task-selected-count">
        <strong>{checked.size}</strong> selected
      </span>
      <select aria-label="Set status of the selected tasks" data-testid="task-bulk-status" value="" disabled={bulkBusy || checked.size === 0} onChange={(e) => e.target.value && bulk([...checked], { status: e.target.value as TaskStatus })}>
        <option value="">Status…</option>
        <Options options={TASK_STATUS_OPTIONS} />
      </select>
      <select
        aria-label="Assign the selected tasks to"
        data-testid="task-bulk-assignee"
        value=""
        disabled={bulkBusy || checked.size === 0}
        onChange={(e) => e.target.value && bulk([...checked], { assignee: e.target.value === '__none__' ? null : e.target.value })}
      >
        <option value="">Assignee…</option>
        <option value="__none__">Unassigned</option>
        {members.map((m) => (
          <option key={m.email} value={m.email}>
            {memberLabel(m.email, members, me)}
          </option>
        ))}
      </select>
      <select
        aria-label="Set priority of the selected tasks"
        data-testid="task-bulk-priority"
        value=""
        disabled={bulkBusy || checked.size === 0}
        onChange={(e) => e.target.value && bulk([...checked], { priority: Number(e.target.value) as TaskPriority })}
      >
        <option value="">Priority…</option>
        <Options options={TASK_PRIORITY_OPTIONS} />
      </select>
      <ToolbarButton className="btn small-btn" data-testid="task-bulk-close" disabled={bulkBusy || checked.size === 0} onClick={() => bulk([...checked], { status: 'closed' })}>
        Close Task(s)
      </ToolbarButton>
      {bulkBusy && <span className="muted small">Updating…</span>}
    </Toolbar>
  );
}

/** Which tasks the last bulk change could not update, and why; dismissable. */
export function TaskBulkFailures({ failures, byId, onDismiss }: { failures: Array<{ task_id: string; reason: string }>; byId: Map<string, Task>; onDismiss: () => void }) {
  return (
    <BulkFailures
      failures={failures}
      noun="task"
      testId="task-bulk-failures"
      itemKey={(f) => f.task_id}
      renderItem={(f) => `${byId.get(f.task_id)?.title ?? f.task_id} — ${f.reason}`}
      onDismiss={onDismiss}
    />
  );
}
