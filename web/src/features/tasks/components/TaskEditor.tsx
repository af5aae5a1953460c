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
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ReminderChoice, Repeat, Task, TaskPriority, TaskStatus, UpdateTaskInput } from '#shared/task/task.schemas.ts';
import { MAX_TITLE, REMINDER_CHOICES, REPEAT_INTERVALS } from '#shared/task/task.schemas.ts';
import { validateReminder, withDueDate, withReminderChoice, type ReminderState } from '#shared/task/task.rules.ts';
import { api, errorMessage, fieldErrors } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useTasks, type NewTaskPrefill } from '../hooks/useTasks.tsx';
import { useToast } from '../../../app/toast.tsx';
import {
  REMINDER_LABELS,
  TASK_PRIORITY_OPTIONS,
  TASK_STATUS_OPTIONS,
  browserTimeZone,
  editableOf,
  memberLabel,
  fromDayInput,
  fromLocalInput,
  taskDueText,
  toDayInput,
  toLocalInput,
} from '../api/tasks.ts';
import { MemberSelect } from '../../../components/ui/MemberPicker.tsx';
import { AssociatedObject } from './AssociatedObject.tsx';
import { useAssignableMembers } from '../hooks/useAssignableMembers.ts';
import { useNow } from '../hooks/useNow.ts';

const TITLE_MAX_HEIGHT = 120;

interface Form {
  title: string;
  status: TaskStatus;
  priority: TaskPriority;
  assignee: string | null;
  notes: string;
  reminder: ReminderState;
}

function formOf(t: Task): Form {
  const e = editableOf(t);
  return { title: e.title, status: e.status, priority: e.priority, assignee: e.assignee, notes: e.notes, reminder: { due_date: e.due_date, remind_at: e.remind_at, reminder_setting: e.reminder_setting } };
}

function newForm(me: string, prefill: NewTaskPrefill): Form {
  return {
    title: (prefill.title ?? '').slice(0, MAX_TITLE),
    status: 'open',
    priority: 1,
    assignee: me,
    notes: '',
    reminder: { due_date: null, remind_at: null, reminder_setting: { remind_in: 'none', repeat: null } },
  };
}

function payloadOf(f: Form, tz: string): UpdateTaskInput {
  return {
    title: f.title.trim(),
    status: f.status,
    priority: f.priority,
    assignee: f.assignee,
    due_date: f.reminder.due_date,
    remind_at: f.reminder.remind_at,
    reminder_setting: { remind_in: f.reminder.reminder_setting.remind_in, repeat: f.reminder.reminder_setting.repeat ?? null },
    notes: f.notes,
    time_zone: tz,
  };
}

const same = (a: Form, b: Form): boolean => JSON.stringify(payloadOf(a, '')) === JSON.stringify(payloadOf(b, ''));

/** API field names ('reminder_setting.repeat.frequency', 'body.title', …) to the form's error slots. */
function slotOf(field: string): string {
  const f = field.replace(/^(body|input)\./, '');
  if (f.startsWith('reminder_setting.repeat')) return 'repeat';
  if (f.startsWith('reminder_setting')) return 'reminder';
  return f;
}

export function TaskEditor({ mode, task, prefill }: { mode: 'new' | 'edit'; task: Task | null; prefill?: NewTaskPrefill }) {
  const { org, user } = useSession();
  const { upsert, showList, closePanel, openAudit } = useTasks();
  const toast = useToast();
  const navigate = useNavigate();
  const now = useNow(30_000);
  const me = user.email.toLowerCase();
  const tz = task?.time_zone || browserTimeZone();

  const [base, setBase] = useState<Form>(() => (task ? formOf(task) : newForm(me, prefill ?? {})));
  const [form, setForm] = useState<Form>(base);
  const [touched, setTouched] = useState<{ due_date?: boolean; remind_at?: boolean }>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [showProblems, setShowProblems] = useState(false);
  const titleRef = useRef<HTMLTextAreaElement>(null);
  const members = useAssignableMembers([form.assignee, task?.assignee]);

  // the task changed elsewhere (event, row menu): follow it when nothing is being edited here
  const lastSeen = useRef(task?.last_updated_at ?? 0);
  useEffect(() => {
    if (!task || task.last_updated_at === lastSeen.current) return;
    lastSeen.current = task.last_updated_at;
    const next = formOf(task);
    setForm((cur) => (same(cur, base) ? next : cur));
    setBase(next);
  }, [task]);

  // title grows with its text up to 120px
  useLayoutEffect(() => {
    const el = titleRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, TITLE_MAX_HEIGHT)}px`;
    el.style.overflowY = el.scrollHeight > TITLE_MAX_HEIGHT ? 'auto' : 'hidden';
  }, [form.title]);

  useEffect(() => {
    if (!window.matchMedia('(max-width: 768px)').matches) titleRef.current?.focus({ preventScroll: true });
  }, []);

  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setForm((f) => ({ ...f, [k]: v }));
    setErrors((e) => {
      if (!e[k as string]) return e;
      const n = { ...e };
      delete n[k as string];
      return n;
    });
  };
  const setReminder = (r: ReminderState, changed: { due_date?: boolean; remind_at?: boolean }) => {
    setForm((f) => ({ ...f, reminder: r }));
    setTouched((t) => ({ ...t, ...changed }));
    setErrors((e) => {
      const n = { ...e };
      delete n.due_date;
      delete n.remind_at;
      delete n.reminder;
      delete n.repeat;
      return n;
    });
  };

  const choice = form.reminder.reminder_setting.remind_in;
  const repeat = form.reminder.reminder_setting.repeat ?? null;
  const problems = useMemo(() => validateReminder(form.reminder, now, touched), [form.reminder, now, touched]);
  const dueRequired = problems.some((p) => p.field === 'due_date' && p.reason === 'Due date is required');
  const problemOf = (slot: string): string | undefined => {
    const own = errors[slot];
    if (own) return own;
    const p = problems.find((x) => slotOf(x.field) === slot && !(slot === 'due_date' && x.reason === 'Due date is required'));
    return p && (showProblems || touched.due_date || touched.remind_at) ? p.reason : undefined;
  };

  const changed = mode === 'new' || !same(form, base);
  const titleEmpty = form.title.trim() === '';
  const canSave = !titleEmpty && changed && !busy;
  const notesChanged = form.notes !== base.notes;

  async function save() {
    if (!canSave) return;
    if (problems.length) {
      setShowProblems(true);
      toast.show(problems[0].reason === 'Due date is required' ? 'Due date is required' : `Reminder: ${problems[0].reason}`, 'error');
      return;
    }
    setBusy(true);
    setErrors({});
    const body = payloadOf(form, tz);
    try {
      if (mode === 'new') {
        const t = await api.createTask(org.org_id, { ...body, time_zone: browserTimeZone(), associated_object_metadata: prefill?.associated ?? null });
        upsert(t);
        toast.show('Task created', 'success');
        showList();
      } else if (task) {
        const t = await api.updateTask(org.org_id, task.task_id, body);
        upsert(t);
        lastSeen.current = t.last_updated_at;
        const next = formOf(t);
        setBase(next);
        setForm(next);
        setTouched({});
        toast.show('Task saved', 'success');
      }
    } catch (e) {
      const fe = fieldErrors(e);
      const known = new Set(['title', 'status', 'priority', 'assignee', 'due_date', 'remind_at', 'reminder', 'repeat', 'notes']);
      const mine: Record<string, string> = {};
      for (const f of fe) if (known.has(slotOf(f.field))) mine[slotOf(f.field)] = f.reason;
      setErrors(mine);
      if (Object.keys(mine).length === 0) toast.show(errorMessage(e), 'error');
    } finally {
      setBusy(false);
    }
  }

  const link = mode === 'edit' ? (task?.associated_object_metadata ?? null) : (prefill?.associated ?? null);
  const viewObject = (path: string) => {
    closePanel();
    navigate(path);
  };

  const derivedAt = choice !== 'none' && choice !== 'custom_date' && form.reminder.remind_at != null ? form.reminder.remind_at : null;
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
            maxLength={MAX_TITLE}
            value={form.title}
            placeholder="What needs to be done?"
            aria-invalid={!!errors.title || undefined}
            aria-describedby={errors.title ? 'task-err-title' : undefined}
            onChange={(e) => set('title', e.target.value.replace(/\n/g, ' '))}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                void save();
              }
            }}
          />
          <span className="field-foot">
            {err('title', 'task-err-title')}
            <span className={`char-count ${form.title.length >= MAX_TITLE ? 'over' : ''}`}>
              {form.title.length}/{MAX_TITLE}
            </span>
          </span>
        </label>

        <div className="task-grid">
          <label className="field">
            <span>Status</span>
            <select data-testid="task-status-select" className={`status-select status-${form.status}`} value={form.status} onChange={(e) => set('status', e.target.value as TaskStatus)}>
              {TASK_STATUS_OPTIONS.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
            {err('status', 'task-err-status')}
          </label>
          <label className="field">
            <span>Priority</span>
            <select data-testid="task-priority-select" value={form.priority} onChange={(e) => set('priority', Number(e.target.value) as TaskPriority)}>
              {TASK_PRIORITY_OPTIONS.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
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

          <div className="field span-2">
            <label htmlFor="task-due-input">Due date</label>
            <span className="inline-inputs">
              <input
                id="task-due-input"
                type="datetime-local"
                data-testid="task-due-input"
                className={dueRequired ? 'invalid' : ''}
                value={toLocalInput(form.reminder.due_date)}
                min={toLocalInput(now)}
                aria-invalid={dueRequired || !!problemOf('due_date') || undefined}
                aria-describedby={dueRequired ? 'task-due-required' : undefined}
                onChange={(e) => {
                  const v = fromLocalInput(e.target.value);
                  if (v === null && e.target.value !== '') return;
                  setReminder(withDueDate(form.reminder, v, tz), { due_date: true });
                }}
              />
              {form.reminder.due_date != null && (
                <button type="button" className="chip-btn" data-testid="task-due-clear" onClick={() => setReminder(withDueDate(form.reminder, null, tz), { due_date: true })}>
                  Clear
                </button>
              )}
            </span>
            {dueRequired && (
              <span className="field-error due-required" id="task-due-required" role="alert" data-testid="task-due-required">
                Due date is required
              </span>
            )}
            {err('due_date', 'task-err-due')}
          </div>

          <label className="field span-2">
            <span>Reminder</span>
            <select
              data-testid="task-reminder-select"
              value={choice}
              onChange={(e) => {
                const c = e.target.value as ReminderChoice;
                setReminder(withReminderChoice(form.reminder, c, tz), { remind_at: c === 'custom_date' ? touched.remind_at : false });
              }}
            >
              {REMINDER_CHOICES.map((c) => (
                <option key={c} value={c}>
                  {REMINDER_LABELS[c]}
                </option>
              ))}
            </select>
            {derivedAt != null && (
              <span className="muted small" data-testid="task-remind-at-text">
                Reminds {taskDueText(derivedAt)}
              </span>
            )}
            {err('reminder', 'task-err-reminder')}
          </label>

          {choice === 'repeat' && repeat && <RepeatFields repeat={repeat} onChange={(r) => setReminder({ ...form.reminder, reminder_setting: { remind_in: 'repeat', repeat: r } }, {})} error={problemOf('repeat')} />}

          {choice === 'custom_date' && (
            <div className="field span-2">
              <label htmlFor="task-remind-at-input">Remind at</label>
              <input
                id="task-remind-at-input"
                type="datetime-local"
                data-testid="task-remind-at-input"
                value={toLocalInput(form.reminder.remind_at)}
                min={toLocalInput(now)}
                aria-invalid={!!problemOf('remind_at') || undefined}
                onChange={(e) => {
                  const v = fromLocalInput(e.target.value);
                  const r = withReminderChoice(form.reminder, 'custom_date', tz, v);
                  setReminder(v === null ? { ...r, remind_at: null } : r, { remind_at: true });
                }}
              />
              {err('remind_at', 'task-err-remind-at')}
            </div>
          )}
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

function RepeatFields({ repeat, onChange, error }: { repeat: Repeat; onChange: (r: Repeat) => void; error?: string }) {
  const [freq, setFreq] = useState(String(repeat.frequency));
  useEffect(() => setFreq(String(repeat.frequency)), [repeat.frequency]);
  return (
    <fieldset className="field span-2 repeat-fields" data-testid="task-repeat">
      <legend>Repeat</legend>
      <span className="inline-inputs">
        <span>Every</span>
        <input
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          step={1}
          className="repeat-frequency"
          aria-label="Repeat frequency"
          data-testid="task-repeat-frequency"
          value={freq}
          onChange={(e) => {
            setFreq(e.target.value);
            const n = Number(e.target.value);
            if (Number.isInteger(n) && n >= 1 && n <= 365) onChange({ ...repeat, frequency: n });
          }}
          onBlur={() => setFreq(String(repeat.frequency))}
        />
        <select aria-label="Repeat interval" data-testid="task-repeat-interval" value={repeat.interval} onChange={(e) => onChange({ ...repeat, interval: e.target.value as Repeat['interval'] })}>
          {REPEAT_INTERVALS.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </span>
      <span className="inline-inputs">
        <span>Ends</span>
        <select
          aria-label="Repeat ends"
          data-testid="task-repeat-end"
          value={repeat.end === 'never' ? 'never' : 'on'}
          onChange={(e) => {
            if (e.target.value === 'never') onChange({ ...repeat, end: 'never' });
            else {
              const d = new Date();
              d.setMonth(d.getMonth() + 1);
              d.setHours(23, 59, 59, 999);
              onChange({ ...repeat, end: d.getTime() });
            }
          }}
        >
          <option value="never">Never</option>
          <option value="on">On a date</option>
        </select>
        {repeat.end !== 'never' && (
          <input
            type="date"
            aria-label="Repeat end date"
            data-testid="task-repeat-end-date"
            value={toDayInput(repeat.end)}
            min={toDayInput(Date.now())}
            onChange={(e) => {
              const d = fromDayInput(e.target.value);
              if (d != null) onChange({ ...repeat, end: d + 86_400_000 - 1 });
            }}
          />
        )}
      </span>
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
