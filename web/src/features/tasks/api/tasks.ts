/**
 * Pure helpers of the task panel: words for statuses, priorities, reminder choices, sorts and
 * audit actions; datetime-local conversions; list merges (newest snapshot wins). The rules
 * themselves (reminder derivation, validation, filters, sorts, time text) come from
 * shared/task/task.rules.ts so the panel shows exactly what the API enforces.
 */
import { format, isToday, isTomorrow, isYesterday } from 'date-fns';
import type { AssociatedObjectMetadata, ReminderChoice, Task, TaskAuditLogRow, TaskPriority, TaskSort, TaskStatus, UpdateTaskInput } from '#shared/task/task.schemas.ts';
import { REMIND_IN_CHOICES, TASK_PRIORITY_NAMES } from '#shared/task/task.schemas.ts';
import { formatDay, shortenTitle } from '#shared/task/task.rules.ts';
import type { OrgMember } from '../../../lib/api.ts';

export const TASK_STATUS_LABELS: Record<TaskStatus, string> = { open: 'Open', inprogress: 'In progress', closed: 'Closed' };
export const TASK_STATUS_OPTIONS = Object.entries(TASK_STATUS_LABELS) as Array<[TaskStatus, string]>;
export const TASK_PRIORITY_OPTIONS = ([1, 2, 3] as TaskPriority[]).map((p) => [p, TASK_PRIORITY_NAMES[p]] as const);
export const taskPriorityLabel = (p: number): string => TASK_PRIORITY_NAMES[p as TaskPriority] ?? `Priority ${p}`;

export const REMINDER_LABELS: Record<ReminderChoice, string> = {
  none: 'No reminder',
  repeat: 'Repeat',
  due_time: 'At the due time',
  '30_minutes_before': '30 minutes before',
  '1_hour_before': '1 hour before',
  '1_day_before': '1 day before',
  custom_date: 'Custom date',
};

export type RemindInKey = keyof typeof REMIND_IN_CHOICES;
export const REMIND_IN_LABELS: Record<RemindInKey, string> = { '30_minutes': '30 minutes', '1_hour': '1 hour', '1_day': '1 day', '1_week': '1 week' };

export const TASK_SORT_LABELS: Record<TaskSort, string> = {
  created_at_desc: 'Created (newest first)',
  created_at_asc: 'Created (oldest first)',
  due_date_asc: 'Due date (soonest first)',
  due_date_desc: 'Due date (latest first)',
  priority_desc: 'Priority (high to low)',
  priority_asc: 'Priority (low to high)',
};

/** The browser's IANA zone (sent as the task's time_zone on create). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** epoch ms -> 'yyyy-MM-ddTHH:mm' (local) for <input type="datetime-local">. */
export const toLocalInput = (ms: number | null | undefined): string => (ms == null ? '' : format(ms, "yyyy-MM-dd'T'HH:mm"));

/** 'yyyy-MM-ddTHH:mm' (local) -> epoch ms; null when empty or invalid. */
export function fromLocalInput(v: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(v);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  return Number.isNaN(d.getTime()) ? null : d.getTime();
}

/** 'yyyy-MM-dd' (local) -> epoch ms at that day's start; null when empty. */
export function fromDayInput(v: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) ? null : d.getTime();
}

export const toDayInput = (ms: number | null | undefined): string => (ms == null ? '' : format(ms, 'yyyy-MM-dd'));

/** Due date in words: 'Today 14:30', 'Tomorrow 09:00', 'Yesterday 18:00', else 'DD MMM YY HH:mm'. */
export function taskDueText(ms: number): string {
  const time = format(ms, 'HH:mm');
  if (isToday(ms)) return `Today ${time}`;
  if (isTomorrow(ms)) return `Tomorrow ${time}`;
  if (isYesterday(ms)) return `Yesterday ${time}`;
  return `${formatDay(ms)} ${time}`;
}

/** The editable part of a task, as PUT /tasks/{id} takes it (spec §7: the whole task). */
export function editableOf(t: Task): UpdateTaskInput {
  return {
    title: t.title,
    status: t.status,
    priority: t.priority,
    assignee: t.assignee,
    due_date: t.due_date,
    remind_at: t.remind_at,
    reminder_setting: { remind_in: t.reminder_setting.remind_in, repeat: t.reminder_setting.repeat ?? null },
    notes: t.notes ?? '',
    time_zone: t.time_zone,
  };
}

/** Keep the newer snapshot (events can arrive after a fresher answer). */
export const newerTask = (a: Task | undefined, b: Task): Task => (a && a.last_updated_at > b.last_updated_at ? a : b);

/** Upsert tasks into a list (no order kept: the panel sorts). */
export function upsertTasks(list: Task[], items: Task[]): Task[] {
  if (items.length === 0) return list;
  const at = new Map(list.map((t, i) => [t.task_id, i]));
  const out = list.slice();
  for (const t of items) {
    const i = at.get(t.task_id);
    if (i === undefined) {
      at.set(t.task_id, out.length);
      out.push(t);
    } else out[i] = newerTask(out[i], t);
  }
  return out;
}

export const removeTask = (list: Task[], id: string): Task[] => (list.some((t) => t.task_id === id) ? list.filter((t) => t.task_id !== id) : list);

/** A member's display name ('Me' for the signed-in one), else the email; 'Unassigned' for null. */
export function memberLabel(email: string | null | undefined, members: OrgMember[], me?: string): string {
  if (!email) return 'Unassigned';
  if (email === 'system') return 'Chorus';
  const m = members.find((x) => x.email.toLowerCase() === email.toLowerCase());
  const name = m?.member_name?.trim() || email;
  return me && email.toLowerCase() === me.toLowerCase() ? `${name} (me)` : name;
}

/** What a task is linked to, in words. */
export const ASSOCIATED_TYPE_LABELS: Record<AssociatedObjectMetadata['type'], string> = { chat: 'Chat', message: 'Message', ticket: 'Ticket' };

/** spec §8 'Error while fetching associated …' for a link that cannot be loaded. */
export function associatedError(a: Pick<AssociatedObjectMetadata, 'type' | 'object'> | null | undefined): string {
  switch (a?.type) {
    case 'chat':
      return 'Error while fetching associated chat';
    case 'ticket':
      return 'Error while fetching associated ticket';
    case 'message':
      return a.object?.is_private_note ? 'Error while fetching associated note' : 'Error while fetching associated message or note';
    default:
      return 'Error while fetching associated object';
  }
}

/** Where 'View Object' goes: the chat, the message in its chat (highlighted) or the ticket. */
export function associatedPath(a: AssociatedObjectMetadata): string | null {
  const chatId = a.object?.chat_id ?? null;
  if (a.type === 'chat') return `/chats/${encodeURIComponent(chatId ?? a.id)}`;
  if (a.type === 'message') return chatId ? `/chats/${encodeURIComponent(chatId)}?message=${encodeURIComponent(a.id)}` : null;
  if (a.type === 'ticket') return `/tickets?ticket=${encodeURIComponent(a.object?.ticket_id ?? a.id)}`;
  return null;
}

// ---- audit log ------------------------------------------------------------------------------

export const AUDIT_ACTION_LABELS: Record<TaskAuditLogRow['action'], string> = {
  TASK_CREATED: 'created the task',
  TITLE_CHANGED: 'changed the title',
  NOTES_CHANGED: 'changed the notes',
  STATUS_CHANGED: 'changed the status',
  ASSIGNEE_CHANGED: 'changed the assignee',
  DUE_DATE_CHANGED: 'changed the due date',
  PRIORITY_CHANGED: 'changed the priority',
  REMINDER_SETTING_CHANGED: 'changed the reminder',
  REMIND_AT_CHANGED: 'changed the reminder time',
  TASK_UPDATED: 'updated the task',
};

function reminderWords(s: unknown): string {
  const r = s as { remind_in?: ReminderChoice; repeat?: { frequency?: number; interval?: string; end?: unknown } | null } | null | undefined;
  if (!r?.remind_in) return '—';
  if (r.remind_in === 'repeat' && r.repeat) {
    const unit = r.repeat.frequency === 1 ? String(r.repeat.interval ?? 'days').replace(/s$/, '') : `${r.repeat.frequency} ${r.repeat.interval}`;
    const end = typeof r.repeat.end === 'number' ? ` until ${formatDay(r.repeat.end)}` : '';
    return `Repeat every ${unit}${end}`;
  }
  return REMINDER_LABELS[r.remind_in] ?? r.remind_in;
}

const when = (v: unknown): string => (typeof v === 'number' ? `${formatDay(v)} ${format(v, 'HH:mm')}` : 'none');

/** old -> new of an audit row in words (null when the action has no values to show). */
export function auditChange(row: TaskAuditLogRow, members: OrgMember[]): { from: string; to: string } | null {
  const o = row.old_record ?? {};
  const n = row.new_record ?? {};
  switch (row.action) {
    case 'TITLE_CHANGED':
      return { from: shortenTitle(o.title ?? ''), to: shortenTitle(n.title ?? '') };
    case 'NOTES_CHANGED':
      return { from: o.notes ? shortenTitle(o.notes) : 'empty', to: n.notes ? shortenTitle(n.notes) : 'empty' };
    case 'STATUS_CHANGED':
      return { from: o.status ? TASK_STATUS_LABELS[o.status] : '—', to: n.status ? TASK_STATUS_LABELS[n.status] : '—' };
    case 'ASSIGNEE_CHANGED':
      return { from: memberLabel(o.assignee ?? null, members), to: memberLabel(n.assignee ?? null, members) };
    case 'DUE_DATE_CHANGED':
      return { from: when(o.due_date), to: when(n.due_date) };
    case 'PRIORITY_CHANGED':
      return { from: o.priority ? taskPriorityLabel(o.priority) : '—', to: n.priority ? taskPriorityLabel(n.priority) : '—' };
    case 'REMINDER_SETTING_CHANGED':
      return { from: reminderWords(o.reminder_setting), to: reminderWords(n.reminder_setting) };
    case 'REMIND_AT_CHANGED':
      return { from: when(o.remind_at), to: when(n.remind_at) };
    default:
      return null;
  }
}
