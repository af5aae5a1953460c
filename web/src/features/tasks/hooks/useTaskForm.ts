/**
 * The state of the task editor (spec §4, §5): the form and the saved copy it is compared with (Save
 * is enabled only when something changed), following the task when it changes elsewhere while
 * nothing is being edited; the reminder problems computed with task.rules.ts (validateReminder) as
 * the API enforces them; and `save` — POST /tasks (new) or PUT /tasks/{id} (edit), with the API's
 * field reasons put next to their fields and anything else in a toast.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Task, TaskPriority, TaskStatus, UpdateTaskInput } from '#shared/task/task.schemas.ts';
import { MAX_TITLE } from '#shared/task/task.schemas.ts';
import { validateReminder, type ReminderState } from '#shared/task/task.rules.ts';
import { api, errorMessage, fieldErrors } from '../../../lib/api.ts';
import { lengthProblem } from '../../../lib/length.ts';
import { useSession } from '../../../app/session.tsx';
import { useTasks, type NewTaskPrefill } from './useTasks.tsx';
import { useToast } from '../../../app/toast.tsx';
import { browserTimeZone, editableOf } from '../api/tasks.ts';
import { useAssignableMembers } from './useAssignableMembers.ts';
import { useNow } from './useNow.ts';

const TITLE_MAX_HEIGHT = 120;

export interface Form {
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
    // never cut: an overlong prefill (a long message) shows the counter and the refusal (issue 49 §7)
    title: prefill.title ?? '',
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

/** The editor's state and actions for `task` (edit) or a new task with `prefill`. */
export function useTaskForm({ mode, task, prefill }: { mode: 'new' | 'edit'; task: Task | null; prefill?: NewTaskPrefill }) {
  const { org, user } = useSession();
  const { upsert, showList } = useTasks();
  const toast = useToast();
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
  const titleProblem = lengthProblem(form.title, MAX_TITLE, 'Title');
  const canSave = !titleEmpty && !titleProblem && changed && !busy;
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

  return { form, base, set, setReminder, touched, errors, busy, problems, problemOf, dueRequired, choice, repeat, canSave, notesChanged, save, titleRef, members, tz, now, me, titleProblem };
}
