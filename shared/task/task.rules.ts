import { addDays, addMonths, addWeeks, differenceInCalendarMonths, differenceInMonths, endOfDay, format, startOfDay, subDays } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import { DEFAULT_REPEAT, type FilterCondition, type ReminderChoice, type ReminderSetting, type Repeat, type Task, type TaskAuditAction, type TaskFilters, type TaskSort } from './task.schemas.ts';

/**
 * Pure task rules (browser-safe), used by the API to refuse and recompute and by the task panel
 * to show the same thing before saving. Sources: spec §4 (reminder choices, remind_at
 * derivation, statuses), §5 (validation and its words), §9 (filters, sorts, time text).
 * Times are epoch **ms**; calendar math (1 day before, repeats, date ranges) runs in the task's
 * IANA `time_zone` through date-fns + @date-fns/tz, so DST changes and month ends come out as a
 * person expects (a daily 09:00 reminder stays at 09:00 local across DST).
 */

const MIN = 60_000;

/**
 * May a person see (and change) a task? Admins see every task of the org; members the tasks
 * assigned to them or created by them (spec §2 'All Tasks' is admin-only, §6 roles). Emails
 * compare case-insensitively. The one definition of task visibility: the task use cases
 * (shared/task/task.ts) and the realtime fan-out's audience (shared/realtime/event-view.ts) both
 * call it, so what a member is pushed is what the API would show them. Chat access of a task
 * linked to a chat is a separate check (the chat guard).
 */
export function canSeeTask(viewer: { role: string; email: string }, task: { assignee?: unknown; created_by?: unknown }): boolean {
  const same = (a: unknown) => typeof a === 'string' && a.toLowerCase() === viewer.email.toLowerCase();
  return viewer.role === 'admin' || same(task.assignee) || same(task.created_by);
}

/** Choices whose remind_at follows the due date (spec §5: they need one). */
export const DUE_TIED: ReadonlySet<ReminderChoice> = new Set(['repeat', 'due_time', '30_minutes_before', '1_hour_before', '1_day_before']);

/**
 * remind_at for a choice (spec §4 'Remind-at is derived from the due date per choice').
 * repeat and due_time: the due date; N before: due minus N (1 day before = the same local time on
 * the previous calendar day in `tz`); custom_date: the given `customRemindAt`; none: null.
 * A due-tied choice without a due date gives null (validation then says 'Due date is required').
 */
export function deriveRemindAt(choice: ReminderChoice, dueDate: number | null, customRemindAt: number | null, tz: string): number | null {
  switch (choice) {
    case 'none':
      return null;
    case 'custom_date':
      return customRemindAt;
    case 'repeat':
    case 'due_time':
      return dueDate;
    case '30_minutes_before':
      return dueDate == null ? null : dueDate - 30 * MIN;
    case '1_hour_before':
      return dueDate == null ? null : dueDate - 60 * MIN;
    case '1_day_before':
      return dueDate == null ? null : subDays(new TZDate(dueDate, tz), 1).getTime();
  }
}

/** What the reminder fields become when the due date changes (spec §4). */
export interface ReminderState {
  due_date: number | null;
  remind_at: number | null;
  reminder_setting: ReminderSetting;
}

/**
 * Set or clear the due date. Setting recomputes remind_at from the current choice (spec §4).
 *
 * Clearing: the spec gives two readings ('clears remind_at only if the choice is repeat' and
 * 'clears the reminder when tied to the due time'). We take the second: every due-tied choice
 * (repeat, due_time, N before) goes back to 'none' with no remind_at, because spec §5 forbids those
 * choices without a due date, so keeping one would leave a task that cannot be saved; a
 * custom_date reminder does not depend on the due date and is kept.
 */
export function withDueDate(state: ReminderState, dueDate: number | null, tz: string): ReminderState {
  const choice = state.reminder_setting.remind_in;
  if (dueDate == null) {
    if (DUE_TIED.has(choice)) return { due_date: null, remind_at: null, reminder_setting: { remind_in: 'none', repeat: null } };
    return { ...state, due_date: null };
  }
  return { ...state, due_date: dueDate, remind_at: deriveRemindAt(choice, dueDate, state.remind_at, tz) };
}

/** A reminder setting as stored: a repeat only with 'repeat', defaulting to every 1 day, end never (spec §4, §9). */
export function normalizeReminderSetting(s: { remind_in: ReminderChoice; repeat?: Repeat | null }): ReminderSetting {
  return { remind_in: s.remind_in, repeat: s.remind_in === 'repeat' ? (s.repeat ?? DEFAULT_REPEAT) : null };
}

/** Pick a reminder choice (spec §4); remind_at follows the choice. */
export function withReminderChoice(state: ReminderState, choice: ReminderChoice, tz: string, customRemindAt?: number | null): ReminderState {
  return { ...state, reminder_setting: normalizeReminderSetting({ remind_in: choice, repeat: state.reminder_setting.repeat }), remind_at: deriveRemindAt(choice, state.due_date, customRemindAt ?? state.remind_at, tz) };
}

/** Context-menu 'Remind In': remind_at from now, choice custom_date (spec §4). */
export function remindIn(state: ReminderState, ms: number, now: number): ReminderState {
  return { ...state, remind_at: now + ms, reminder_setting: { remind_in: 'custom_date', repeat: null } };
}

export interface FieldError {
  field: string;
  reason: string;
}

/**
 * spec §5 task validation of the reminder fields. `changed` says which fields the user changed
 * now: the 'not in the past' rules apply to a value being set, not to an old due date that has
 * since passed.
 * @returns problems; `due_date: 'Due date is required'` is the spec's own words
 */
export function validateReminder(state: ReminderState, now: number, changed: { due_date?: boolean; remind_at?: boolean }): FieldError[] {
  const out: FieldError[] = [];
  const choice = state.reminder_setting.remind_in;
  if (DUE_TIED.has(choice) && state.due_date == null) out.push({ field: 'due_date', reason: 'Due date is required' });
  if (changed.due_date && state.due_date != null && state.due_date < now - MIN) out.push({ field: 'due_date', reason: 'cannot be in the past' });
  if (choice === 'custom_date' && state.remind_at == null) out.push({ field: 'remind_at', reason: 'is required for a custom reminder' });
  if (changed.remind_at && state.remind_at != null && state.remind_at < now - MIN && choice !== 'repeat') out.push({ field: 'remind_at', reason: 'cannot be in the past' });
  if (choice === 'repeat' && !state.reminder_setting.repeat) out.push({ field: 'reminder_setting.repeat', reason: 'is required for a repeating reminder' });
  if (choice !== 'repeat' && state.reminder_setting.repeat) out.push({ field: 'reminder_setting.repeat', reason: 'is only for a repeating reminder' });
  return out;
}

/** The k-th occurrence of a repeat anchored at `anchor` (k = 0 is the anchor), in `tz`. */
export function occurrence(anchor: number, repeat: Pick<Repeat, 'frequency' | 'interval'>, k: number, tz: string): number {
  const d = new TZDate(anchor, tz);
  const n = k * repeat.frequency;
  if (repeat.interval === 'days') return addDays(d, n).getTime();
  if (repeat.interval === 'weeks') return addWeeks(d, n).getTime();
  // months from the anchor, not from the previous occurrence: Jan 31 -> Feb 28 -> Mar 31
  return addMonths(d, n).getTime();
}

/**
 * Next time a repeating reminder fires after `after` (epoch ms): the first occurrence of the
 * series anchored at the due date that is later than `after`; missed occurrences (the app was
 * down) are skipped, not replayed. @returns null when the series has ended (`repeat.end`)
 */
export function nextOccurrence(anchor: number, repeat: Repeat, after: number, tz: string): number | null {
  let k = 0;
  if (after >= anchor) {
    // jump close to the answer, then step (months are uneven, days are not always 24 h across DST)
    const approx = repeat.interval === 'months' ? differenceInCalendarMonths(new TZDate(after, tz), new TZDate(anchor, tz)) / repeat.frequency : (after - anchor) / ((repeat.interval === 'days' ? 1 : 7) * 86_400_000 * repeat.frequency);
    k = Math.max(0, Math.floor(approx) - 1);
  }
  let t = occurrence(anchor, repeat, k, tz);
  while (t <= after) t = occurrence(anchor, repeat, ++k, tz);
  if (repeat.end !== 'never' && t > repeat.end) return null;
  return t;
}

/** The audit actions a change produces (spec §4), in a stable order; TASK_UPDATED when nothing tracked changed. */
export function auditActionsFor(before: Task, after: Task): TaskAuditAction[] {
  const out: TaskAuditAction[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (!same(before.title, after.title)) out.push('TITLE_CHANGED');
  if (!same(before.notes, after.notes)) out.push('NOTES_CHANGED');
  if (!same(before.status, after.status)) out.push('STATUS_CHANGED');
  if (!same(before.assignee, after.assignee)) out.push('ASSIGNEE_CHANGED');
  if (!same(before.due_date, after.due_date)) out.push('DUE_DATE_CHANGED');
  if (!same(before.priority, after.priority)) out.push('PRIORITY_CHANGED');
  if (!same(before.reminder_setting, after.reminder_setting)) out.push('REMINDER_SETTING_CHANGED');
  if (!same(before.remind_at, after.remind_at)) out.push('REMIND_AT_CHANGED');
  if (!out.length && !same({ ...before, last_updated_at: 0, last_updated_by: '' }, { ...after, last_updated_at: 0, last_updated_by: '' })) out.push('TASK_UPDATED');
  return out;
}

/** Audit rows shown in the list and its count: every action but TASK_UPDATED (spec §4). */
export const isVisibleAuditAction = (a: TaskAuditAction) => a !== 'TASK_UPDATED';

/**
 * Audit time text (spec §9): just now, N mins ago, an hour ago, N hours ago, a day ago, N days
 * ago up to 30, N months ago up to 3 (a month ago for one), then the date 'DD MMM YY'.
 */
export function auditTimeText(ts: number, now: number, tz?: string): string {
  const s = Math.max(0, now - ts) / 1000;
  const mins = Math.floor(s / 60);
  const hours = Math.floor(mins / 60);
  const days = Math.floor(hours / 24);
  if (mins < 1) return 'just now';
  if (mins < 60) return mins === 1 ? '1 min ago' : `${mins} mins ago`;
  if (hours < 24) return hours === 1 ? 'an hour ago' : `${hours} hours ago`;
  if (days <= 30) return days === 1 ? 'a day ago' : `${days} days ago`;
  // whole months elapsed (45 days is 'a month ago')
  const months = differenceInMonths(tz ? new TZDate(now, tz) : new Date(now), tz ? new TZDate(ts, tz) : new Date(ts));
  if (months <= 3) return months <= 1 ? 'a month ago' : `${months} months ago`;
  return formatDay(ts, tz);
}

/** 'DD MMM YY' (spec §9), e.g. '05 Mar 27'. */
export const formatDay = (ts: number, tz?: string) => format(tz ? new TZDate(ts, tz) : new Date(ts), 'dd MMM yy');

/** Audit titles over 15 characters are shortened (spec §9). */
export const shortenTitle = (title: string, max = 15) => (title.length > max ? `${title.slice(0, max)}...` : title);

/** A non-closed task past its due date (shown red, spec §4). */
export const isOverdue = (t: Pick<Task, 'status' | 'due_date'>, now: number) => t.status !== 'closed' && t.due_date != null && t.due_date < now;

/**
 * Date range picker (spec §5, §9): days become 00:00:00.000 .. 23:59:59.999 in `tz`, both ends
 * clamped to [min, max], and ends given in reverse are swapped.
 */
export function normalizeDateRange(from: number, to: number, tz: string, min = -8.64e15, max = 8.64e15): { from: number; to: number } {
  let [a, b] = from <= to ? [from, to] : [to, from];
  a = Math.min(Math.max(a, min), max);
  b = Math.min(Math.max(b, min), max);
  return { from: startOfDay(new TZDate(a, tz)).getTime(), to: endOfDay(new TZDate(b, tz)).getTime() };
}

function check<T>(value: T, selected: readonly T[], condition: FilterCondition): boolean {
  if (condition === 'NOT') return !selected.includes(value);
  if (condition === 'ALL') return selected.every((s) => s === value);
  return selected.includes(value);
}

/**
 * Filters of the task list (spec §9): due date range, priority, status and assignee (null =
 * Unassigned), each with ANY (matches one of the chosen values), ALL (matches every chosen value;
 * a task has one status, so ALL of two statuses matches none) or NOT (matches none of them); the
 * active filters combine with ANY or ALL. No active filter keeps every task.
 */
export function filterTasks<T extends Pick<Task, 'due_date' | 'priority' | 'status' | 'assignee'>>(tasks: readonly T[], f: TaskFilters): T[] {
  const tests: Array<(t: T) => boolean> = [];
  if (f.due) {
    const { from, to, condition } = f.due;
    tests.push((t) => {
      const inside = t.due_date != null && t.due_date >= from && t.due_date <= to;
      return condition === 'NOT' ? !inside : inside;
    });
  }
  if (f.priority?.values.length) tests.push((t) => check(t.priority, f.priority!.values, f.priority!.condition));
  if (f.status?.values.length) tests.push((t) => check(t.status, f.status!.values, f.status!.condition));
  if (f.assignee?.values.length) tests.push((t) => check(t.assignee ?? null, f.assignee!.values, f.assignee!.condition));
  if (!tests.length) return [...tasks];
  return tasks.filter((t) => (f.overall === 'ANY' ? tests.some((x) => x(t)) : tests.every((x) => x(t))));
}

/** Sorts (spec §9), default created_at desc; tasks without a due date go last in both due orders. */
export function sortTasks<T extends Pick<Task, 'due_date' | 'created_at' | 'priority' | 'task_id'>>(tasks: readonly T[], sort: TaskSort): T[] {
  const byCreatedDesc = (a: T, b: T) => b.created_at - a.created_at || (a.task_id < b.task_id ? 1 : -1);
  const due = (dir: 1 | -1) => (a: T, b: T) => {
    if (a.due_date == null || b.due_date == null) return a.due_date == null ? (b.due_date == null ? byCreatedDesc(a, b) : 1) : -1;
    return dir * (a.due_date - b.due_date) || byCreatedDesc(a, b);
  };
  const cmp: Record<TaskSort, (a: T, b: T) => number> = {
    due_date_asc: due(1),
    due_date_desc: due(-1),
    created_at_desc: byCreatedDesc,
    created_at_asc: (a, b) => -byCreatedDesc(a, b),
    priority_desc: (a, b) => b.priority - a.priority || byCreatedDesc(a, b),
    priority_asc: (a, b) => a.priority - b.priority || byCreatedDesc(a, b),
  };
  return [...tasks].sort(cmp[sort]);
}

/** Dropdown search (tasks issue, spec §5 selectors): name or email contains the text, case-insensitive. */
export const matchesMember = (m: { email: string; member_name?: string | null }, text: string) => {
  const q = text.trim().toLowerCase();
  return !q || m.email.toLowerCase().includes(q) || (m.member_name ?? '').toLowerCase().includes(q);
};
