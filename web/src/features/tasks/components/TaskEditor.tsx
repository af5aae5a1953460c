/**
 * The edit / new view of the task panel (spec §4, §5):
 * - title textarea (required, max 150, grows up to 120px); Save/Create disabled when the title is
 *   empty or (editing) nothing changed;
 * - status, priority (Low/Medium/High), assignee (required, searchable, 'Unassigned' included);
 * - due date (not in the past, clearable) and the reminder choice with its repeat settings or the
 *   custom remind-at (not in the past), computed with task.rules.ts (withDueDate,
 *   withReminderChoice, validateReminder) so it shows what the API enforces — including the red
 *   'Due date is required';
 * - notes with Cancel restoring the saved notes;
 * - the linked chat / message / ticket with 'View Object'.
 * New: POST /tasks (defaults priority 1, open, assignee me, no reminder; time_zone from the
 * browser). Edit: PUT /tasks/{id} with the whole editable task. Field reasons from the API show
 * next to their fields, anything else in a toast.
 */
import { useNavigate } from 'react-router-dom';
import type { Task, TaskPriority, TaskStatus } from '#shared/task/task.schemas.ts';
import { MAX_TITLE } from '#shared/task/task.schemas.ts';
import { useTasks, type NewTaskPrefill } from '../hooks/useTasks.tsx';
import { TASK_PRIORITY_OPTIONS, TASK_STATUS_OPTIONS, memberLabel, taskDueText } from '../api/tasks.ts';
import { MemberSelect } from '../../../components/ui/MemberPicker.tsx';
import { AssociatedObject } from './AssociatedObject.tsx';
import { TaskReminderFields } from './TaskReminderFields.tsx';
import { useTaskForm } from '../hooks/useTaskForm.ts';
import { Options } from '../../../components/ui/Options.tsx';

/** The editor of `task` (mode 'edit') or of a new task (mode 'new', with `prefill`). */
export function TaskEditor({ mode, task, prefill }: { mode: 'new' | 'edit'; task: Task | null; prefill?: NewTaskPrefill }) {
  const { showList, closePanel, openAudit } = useTasks();
  const navigate = useNavigate();
  const { form, base, set, setReminder, touched, errors, busy, problemOf, dueRequired, canSave, notesChanged, save, titleRef, members, tz, now, me, titleProblem } = useTaskForm({ mode, task, prefill });

  const link = mode === 'edit' ? (task?.associated_object_metadata ?? null) : (prefill?.associated ?? null);
  const viewObject = (path: string) => {
    closePanel();
    navigate(path);
  };

  const err = (slot: string, id: string) => {
    const m = problemOf(slot);
    return m ? (
      <span className="field-error" id={id} role="alert" data-testid={`task-error-${slot}`}>
        {m}
      </span>
    ) : null;
  };

  return (
    <form
      className="task-editor"
      data-testid="task-editor"
      data-mode={mode}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="task-editor-body">
        {link && <AssociatedObject link={link} onView={viewObject} />}

        <label className="field">
          <span>
            Title <span aria-hidden="true">*</span>
          </span>
          <textarea
            ref={titleRef}
            className="task-title-input"
            data-testid="task-title-input"
            rows={1}
            required
            value={form.title}
            placeholder="What needs to be done?"
            aria-invalid={!!errors.title || !!titleProblem || undefined}
            aria-describedby={errors.title || titleProblem ? 'task-err-title' : undefined}
            onChange={(e) => set('title', e.target.value.replace(/\n/g, ' '))}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                void save();
              }
            }}
          />
          <span className="field-foot">
            {titleProblem ? (
              <span className="field-error" id="task-err-title" role="alert" data-testid="task-error-title">
                {titleProblem}
              </span>
            ) : (
              err('title', 'task-err-title')
            )}
            <span className={`char-count ${titleProblem ? 'over' : ''}`} data-testid="task-title-count">
              {form.title.trim().length}/{MAX_TITLE}
            </span>
          </span>
        </label>

        <div className="task-grid">
          <label className="field">
            <span>Status</span>
            <select data-testid="task-status-select" className={`status-select status-${form.status}`} value={form.status} onChange={(e) => set('status', e.target.value as TaskStatus)}>
              <Options options={TASK_STATUS_OPTIONS} />
            </select>
            {err('status', 'task-err-status')}
          </label>
          <label className="field">
            <span>Priority</span>
            <select data-testid="task-priority-select" value={form.priority} onChange={(e) => set('priority', Number(e.target.value) as TaskPriority)}>
              <Options options={TASK_PRIORITY_OPTIONS} />
            </select>
            {err('priority', 'task-err-priority')}
          </label>
          <div className="field span-2">
            <span id="task-assignee-label">Assignee</span>
            <MemberSelect
              value={form.assignee}
              onChange={(a) => set('assignee', a)}
              members={members}
              me={me}
              noneLabel="Unassigned"
              buttonText={memberLabel(form.assignee, members, me)}
              label="Assignee"
              testId="task-assignee-select"
              testIdPrefix="task-assignee"
              invalid={!!errors.assignee}
            />
            {err('assignee', 'task-err-assignee')}
          </div>

          <TaskReminderFields form={form} now={now} tz={tz} touched={touched} dueRequired={dueRequired} setReminder={setReminder} problemOf={problemOf} err={err} />
        </div>

        <div className="field">
          <label htmlFor="task-notes">Notes</label>
          <textarea
            id="task-notes"
            className="task-notes"
            data-testid="task-notes-input"
            rows={4}
            value={form.notes}
            placeholder="Add notes"
            onChange={(e) => set('notes', e.target.value)}
          />
          {notesChanged && (
            <span className="notes-actions">
              <button type="button" className="link-btn small" data-testid="task-notes-cancel" onClick={() => set('notes', base.notes)}>
                Cancel
              </button>
            </span>
          )}
          {err('notes', 'task-err-notes')}
        </div>

        {mode === 'edit' && task && (
          <p className="muted small task-meta">
            Created by {task.created_by} · {taskDueText(task.created_at)}
            {task.completed_metadata && ` · closed by ${task.completed_metadata.completed_by}`}
            {' · '}
            <button type="button" className="link-btn small" data-testid="task-audit-open" onClick={() => openAudit(task.task_id, 'edit')}>
              Audit log
            </button>
          </p>
        )}
      </div>
      <div className="task-editor-actions">
        <button type="button" className="btn" onClick={showList}>
          {mode === 'new' ? 'Cancel' : 'Back'}
        </button>
        <button type="submit" className="btn btn-primary" data-testid="task-save" disabled={!canSave} aria-disabled={!canSave}>
          {busy ? (mode === 'new' ? 'Creating…' : 'Saving…') : mode === 'new' ? 'Create' : 'Save'}
        </button>
      </div>
    </form>
  );
}
