import { z } from 'zod';
import { PageCursor } from '../message/message.schemas.ts';

/**
 * Wire shapes of tasks (spec §3 Task and Task audit log row, §4 status/audit/reminders, §5
 * validation, §9 limits). Browser-safe. Timestamps are epoch **ms**.
 * Routes (all under /api/orgs/{org_id}):
 *   GET    /tasks?scope=mine|all&limit&cursor   -> { tasks, cursor }  (scope all: admins; limit 1..1000, default 1000; spec §7)
 *   POST   /tasks                               CreateTaskInput -> 201 { task }
 *   POST   /tasks/bulk                          BulkUpdateTasksInput -> { updated, failed: [{ task_id, reason }] }
 *   GET    /tasks/{task_id}                     -> { task }
 *   PUT    /tasks/{task_id}                     UpdateTaskInput (the whole editable task, spec §7 'task updates carry the whole task') -> { task }
 *   POST   /tasks/{task_id}/remind-in           RemindInInput -> { task }  (context-menu 'Remind In')
 *   GET    /tasks/{task_id}/audit?cursor        -> { entries: TaskAuditLogRow[], cursor }  (newest first; TASK_UPDATED rows omitted)
 *   GET    /members                             -> { members: [{ email, member_name, role }] }  (assignee pickers)
 * Events (socket): task.created, task.updated { org_id, task, actions }, task.reminder_due { org_id, task, remind_at }.
 * Visibility: admins see every task of the org; members see tasks assigned to them or created by them
 * (the list's scope=mine is 'assigned to me'; spec §2: members see only My Tasks).
 */

export const TASK_STATUSES = ['open', 'inprogress', 'closed'] as const;
export const TaskStatus = z.enum(TASK_STATUSES, { errorMap: () => ({ message: 'must be open, inprogress or closed' }) });
export type TaskStatus = z.infer<typeof TaskStatus>;

export const TaskPriority = z.union([z.literal(1), z.literal(2), z.literal(3)], { errorMap: () => ({ message: 'must be 1 (Low), 2 (Medium) or 3 (High)' }) });
export type TaskPriority = z.infer<typeof TaskPriority>;
export const TASK_PRIORITY_NAMES = { 1: 'Low', 2: 'Medium', 3: 'High' } as const;

export const TASK_TYPES = ['todo', 'chat', 'message', 'ticket'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

/** spec §4 Reminder choices */
export const REMINDER_CHOICES = ['none', 'repeat', 'due_time', '30_minutes_before', '1_hour_before', '1_day_before', 'custom_date'] as const;
export const ReminderChoice = z.enum(REMINDER_CHOICES, { errorMap: () => ({ message: `must be one of ${REMINDER_CHOICES.join(', ')}` }) });
export type ReminderChoice = z.infer<typeof ReminderChoice>;

export const REPEAT_INTERVALS = ['days', 'weeks', 'months'] as const;
export const Repeat = z.object({
  /** every `frequency` intervals (>= 1) */
  frequency: z.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(365, 'must be at most 365'),
  interval: z.enum(REPEAT_INTERVALS, { errorMap: () => ({ message: 'must be days, weeks or months' }) }),
  /** 'never', or the last moment an occurrence may fire (epoch ms) */
  end: z.union([z.literal('never'), z.number().int().positive()]),
});
export type Repeat = z.infer<typeof Repeat>;
export const DEFAULT_REPEAT: Repeat = { frequency: 1, interval: 'days', end: 'never' };

export const ReminderSetting = z.object({
  remind_in: ReminderChoice,
  /** only with remind_in 'repeat' */
  repeat: Repeat.nullish(),
});
export type ReminderSetting = z.infer<typeof ReminderSetting>;

export const MAX_TITLE = 150;
/** Quick 'Remind In' choices (spec §9) */
export const REMIND_IN_CHOICES = { '30_minutes': 30 * 60_000, '1_hour': 60 * 60_000, '1_day': 24 * 60 * 60_000, '1_week': 7 * 24 * 60 * 60_000 } as const;

const LinkId = z.string({ invalid_type_error: 'must be text' }).max(200, 'is too long');

/**
 * spec §3 associated_object_metadata: what a task is linked to. Bounded (ids of at most 200
 * characters, only the known keys of `object` are kept), so a client cannot store an arbitrary
 * object on a task. `sender_phone` is never taken from the client: the server derives it from the
 * linked message (shared/task/task.ts) and masks it per viewer (the guard).
 */
export const AssociatedObjectMetadata = z.object({
  /** chat_id, message unique_id or ticket_id */
  id: LinkId.min(1, 'is required'),
  type: z.enum(['chat', 'ticket', 'message']),
  index: z.number().int().min(0).max(1_000_000).nullish(),
  object: z
    .object({
      chat_id: LinkId.nullish(),
      org_id: LinkId.nullish(),
      org_phone: LinkId.nullish(),
      ticket_id: LinkId.nullish(),
      quoted_message_id: LinkId.nullish(),
      message_id: LinkId.nullish(),
      sender_phone: LinkId.nullish(),
      sent_message_id: LinkId.nullish(),
      is_private_note: z.boolean().nullish(),
    })
    .strip(),
});
export type AssociatedObjectMetadata = z.infer<typeof AssociatedObjectMetadata>;

export const Task = z.object({
  task_id: z.string(),
  org_id: z.string(),
  title: z.string(),
  type: z.enum(TASK_TYPES),
  status: TaskStatus,
  priority: TaskPriority,
  /** member email, or null (Unassigned) */
  assignee: z.string().nullable(),
  due_date: z.number().nullable(),
  remind_at: z.number().nullable(),
  reminder_setting: ReminderSetting,
  /** IANA zone the reminder math runs in (repeat across DST, '1 day before'); from the creator's browser */
  time_zone: z.string(),
  notes: z.string(),
  created_by: z.string(),
  created_at: z.number(),
  last_updated_by: z.string(),
  last_updated_at: z.number(),
  /** set when closed: { completed_by, completed_at } */
  completed_metadata: z.object({ completed_by: z.string(), completed_at: z.number() }).nullable(),
  associated_object_metadata: AssociatedObjectMetadata.nullable(),
});
export type Task = z.infer<typeof Task>;

export const TASK_AUDIT_ACTIONS = [
  'TASK_CREATED',
  'TITLE_CHANGED',
  'NOTES_CHANGED',
  'STATUS_CHANGED',
  'ASSIGNEE_CHANGED',
  'DUE_DATE_CHANGED',
  'PRIORITY_CHANGED',
  'REMINDER_SETTING_CHANGED',
  'REMIND_AT_CHANGED',
  'TASK_UPDATED',
] as const;
export type TaskAuditAction = (typeof TASK_AUDIT_ACTIONS)[number];

/** spec §3 Task audit log row */
export const TaskAuditLogRow = z.object({
  log_id: z.string(),
  task_id: z.string(),
  org_id: z.string(),
  action: z.enum(TASK_AUDIT_ACTIONS),
  /** member email, or 'system' (reminder re-arm) */
  performed_by: z.string(),
  timestamp: z.number(),
  old_record: Task.partial().nullable(),
  new_record: Task.partial().nullable(),
});
export type TaskAuditLogRow = z.infer<typeof TaskAuditLogRow>;

const Title = z
  .string({ required_error: 'is required', invalid_type_error: 'must be text' })
  .trim()
  .min(1, 'is required')
  .max(MAX_TITLE, `must be at most ${MAX_TITLE} characters`);
const Email = z.string().trim().toLowerCase().email('must be a member email');
const Epoch = z.number({ invalid_type_error: 'must be epoch ms' }).int('must be epoch ms').positive('must be epoch ms');
const TimeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as Asia/Kolkata');

/** The editable fields (create and the whole-task update share them). Cross-field rules: validateTaskFields (task.rules.ts). */
const Editable = {
  title: Title,
  status: TaskStatus,
  priority: TaskPriority,
  assignee: Email.nullable(),
  due_date: Epoch.nullable(),
  /** required for custom_date; derived for the other choices (a given value is ignored then) */
  remind_at: Epoch.nullable(),
  reminder_setting: ReminderSetting,
  notes: z.string().max(10_000, 'must be at most 10000 characters'),
};

/** POST /tasks. Defaults (spec §9): priority 1, status open, assignee = me, reminder none, type from the link. */
export const CreateTaskInput = z.object({
  title: Editable.title,
  status: Editable.status.default('open'),
  priority: Editable.priority.default(1),
  /** omitted = me; null = Unassigned */
  assignee: Editable.assignee.optional(),
  due_date: Editable.due_date.default(null),
  remind_at: Editable.remind_at.default(null),
  reminder_setting: Editable.reminder_setting.default({ remind_in: 'none' }),
  notes: Editable.notes.default(''),
  time_zone: TimeZone.default('UTC'),
  /** link to a chat, message or ticket (type follows it); none = a to-do */
  associated_object_metadata: AssociatedObjectMetadata.nullable().default(null),
});
export type CreateTaskInput = z.infer<typeof CreateTaskInput>;

/** PUT /tasks/{task_id}: the whole editable task (spec §7). */
export const UpdateTaskInput = z.object({ ...Editable, time_zone: TimeZone.optional() });
export type UpdateTaskInput = z.infer<typeof UpdateTaskInput>;

/** POST /tasks/{task_id}/remind-in */
export const RemindInInput = z.object({ remind_in: z.enum(Object.keys(REMIND_IN_CHOICES) as [keyof typeof REMIND_IN_CHOICES], { errorMap: () => ({ message: 'must be 30_minutes, 1_hour, 1_day or 1_week' }) }) });
export type RemindInInput = z.infer<typeof RemindInInput>;

export const MAX_BULK_TASKS = 500;
/** POST /tasks/bulk: status, assignee and/or priority on many tasks ('Close Task(s)' = status closed). */
export const BulkUpdateTasksInput = z
  .object({
    task_ids: z.array(z.string().min(1)).min(1, 'must list at least one task').max(MAX_BULK_TASKS, `must list at most ${MAX_BULK_TASKS} tasks`),
    status: TaskStatus.optional(),
    assignee: Email.nullable().optional(),
    priority: TaskPriority.optional(),
  })
  .refine((v) => v.status !== undefined || v.assignee !== undefined || v.priority !== undefined, { message: 'give a status, an assignee or a priority' });
export type BulkUpdateTasksInput = z.infer<typeof BulkUpdateTasksInput>;

/** Initial fetch 1000, 'Load more tasks' adds 500 when 500 or more are loaded (spec §7, §9). */
export const TASK_FETCH_LIMIT = 1000;
export const TASK_LOAD_MORE = 500;
export const ListTasksQuery = z.object({
  scope: z.enum(['mine', 'all'], { errorMap: () => ({ message: 'must be mine or all' }) }).default('mine'),
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(TASK_FETCH_LIMIT),
  cursor: PageCursor.optional(),
});
export type ListTasksQuery = z.infer<typeof ListTasksQuery>;

/** List filters (spec §9): each with ANY / ALL / NOT, combined with ANY / ALL. Applied in the panel (filterTasks). */
export const FilterCondition = z.enum(['ANY', 'ALL', 'NOT']);
export type FilterCondition = z.infer<typeof FilterCondition>;
export interface TaskFilters {
  /** epoch ms, inclusive; already clamped/swapped by normalizeDateRange */
  due?: { from: number; to: number; condition: FilterCondition } | null;
  priority?: { values: TaskPriority[]; condition: FilterCondition } | null;
  status?: { values: TaskStatus[]; condition: FilterCondition } | null;
  /** member emails; null stands for Unassigned */
  assignee?: { values: Array<string | null>; condition: FilterCondition } | null;
  overall: 'ANY' | 'ALL';
}
export const TASK_SORTS = ['due_date_asc', 'due_date_desc', 'created_at_asc', 'created_at_desc', 'priority_desc', 'priority_asc'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];
export const DEFAULT_TASK_SORT: TaskSort = 'created_at_desc';
