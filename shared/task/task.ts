import { monotonicFactory } from 'ulid';
import type { EntityItem } from 'electrodb';
import { RETRY, retryOnConflict } from '../db/retry.ts';
import { db } from '../db/service.ts';
import { commitWithEvents, type TxEntities, type TxItem } from '../db/transaction.ts';
import { assertActiveMember } from '../member/member.ts';
import { AppError, notFound } from '../errors.ts';
import { type PublishInput, publishAll } from '../../events/publish.ts';
import { scheduleName, schedulerPort } from '../ports/scheduler.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard, type ChatGuard } from '../access/guard.ts';
import { collectFiltered, keyCursor, withCursor } from '../db/paging.ts';
import { getMessageItem } from '../message/message.ts';
import type { TaskEntity } from './task.entity.ts';
import type { BulkUpdateTasksInput, CreateTaskInput, ListTasksQuery, RemindInInput, Task, TaskAuditAction, TaskAuditLogRow, UpdateTaskInput } from './task.schemas.ts';
import { REMIND_IN_CHOICES } from './task.schemas.ts';
import { auditActionsFor, canSeeTask, deriveRemindAt, normalizeReminderSetting, isVisibleAuditAction, nextOccurrence, remindIn, validateReminder, type FieldError } from './task.rules.ts';

/**
 * Task use cases (tasks issue; spec §2-§5, §9). Every write is one transaction: the task
 * (optimistic `version`) and one audit row per action (old and new record). Reminders go through
 * the scheduler port: a wake-up per (task, remind_at), created before the write and the old one
 * cancelled after it, so a failed write never loses the reminder that was set; the wake-up
 * consumer ignores a time the task no longer has. Times are epoch **ms**.
 * Visibility: admins see all tasks of the org; members the tasks assigned to or created by them (canSeeTask, task.rules.ts).
 * A task linked to a chat (directly, or through its message or ticket) goes through the access
 * guard (shared/access/guard.ts) like the chat itself: linking to a chat the actor may not see,
 * and reading or changing a task linked to one, is 403 'You do not have access to this chat'
 * (also for the assignee), and lists leave such tasks out page by page. Every task handed out
 * passes the guard's view (the linked message's sender number masked). The sender number is
 * derived from the stored message, never taken from the client.
 */

type TaskItem = EntityItem<typeof TaskEntity>;

const ulid = monotonicFactory();
const MAX_RETRIES = 8;

export function toTaskWire(t: TaskItem): Task {
  return {
    task_id: t.task_id,
    org_id: t.org_id,
    title: t.title,
    type: t.type,
    status: t.status,
    priority: t.priority as Task['priority'],
    assignee: t.assignee ?? null,
    due_date: t.due_date ?? null,
    remind_at: t.remind_at ?? null,
    reminder_setting: t.reminder_setting as Task['reminder_setting'],
    time_zone: t.time_zone,
    notes: t.notes ?? '',
    created_by: t.created_by,
    created_at: t.created_at,
    last_updated_by: t.last_updated_by,
    last_updated_at: t.last_updated_at,
    completed_metadata: (t.completed_metadata as Task['completed_metadata']) ?? null,
    associated_object_metadata: (t.associated_object_metadata as Task['associated_object_metadata']) ?? null,
  };
}

function toItem(t: Task, version: number): TaskItem {
  return {
    ...t,
    assignee: t.assignee ?? undefined,
    assignee_key: t.assignee ?? 'none',
    due_date: t.due_date ?? undefined,
    remind_at: t.remind_at ?? undefined,
    completed_metadata: t.completed_metadata ?? undefined,
    associated_object_metadata: t.associated_object_metadata ?? undefined,
    version,
  };
}

const invalid = (errors: FieldError[]) => new AppError('validation', errors[0]!.field === 'due_date' && errors[0]!.reason === 'Due date is required' ? 'Due date is required' : `${errors[0]!.field} ${errors[0]!.reason}`, { details: errors });


/**
 * A task the actor may see and change: theirs (or any, for admins), linked to no chat or to one
 * the actor may see (the guard).
 * @throws AppError 404 task.not_found; 403 chat.no_access
 */
async function loadTask(actor: Actor, taskId: string): Promise<TaskItem> {
  const t = (await db().entities.task.get({ org_id: actor.org_id, task_id: taskId }).go()).data;
  if (!t || !canSeeTask(actor, t)) throw notFound('task');
  await (await chatGuard(actor)).assertChat(linkedChat(t.associated_object_metadata as Task['associated_object_metadata']));
  return t;
}

/** The wake-up of a task's reminder: one per (task, remind_at). */
const reminderName = (t: Pick<Task, 'task_id'>, at: number) => scheduleName('task', t.task_id, String(at));
const armed = (t: Pick<Task, 'status' | 'remind_at'>) => (t.status !== 'closed' && t.remind_at != null ? t.remind_at : null);

async function armReminder(t: Task): Promise<void> {
  const at = armed(t);
  if (at == null) return;
  await (await schedulerPort()).schedule({ name: reminderName(t, at), at, queue: 'task-reminders', body: JSON.stringify({ org_id: t.org_id, task_id: t.task_id, remind_at: at }) });
}

async function disarmReminder(before: Task, after: Task | null): Promise<void> {
  const was = armed(before);
  if (was == null || (after && armed(after) === was)) return;
  await (await schedulerPort()).cancel(reminderName(before, was));
}

function auditOps(e: TxEntities, actions: TaskAuditAction[], before: Task | null, after: Task, by: string, at: number): TxItem[] {
  return actions.map((action) => e.taskAudit.create({ org_id: after.org_id, task_id: after.task_id, log_id: ulid(at), action, performed_by: by, timestamp: at, old_record: before ?? undefined, new_record: after }).commit() as TxItem);
}

/**
 * POST /tasks. Defaults (spec §9): priority 1, status open, assignee self, reminder none; the type
 * follows the linked object (todo when none). remind_at is derived from the due date for the
 * due-tied choices (spec §4).
 * @throws AppError 400 with `details` for spec §5 rules ('Due date is required', not in the past), an unknown assignee or a linked object that does not exist
 */
export async function createTask(actor: Actor, input: CreateTaskInput): Promise<Task> {
  const now = Date.now();
  const assignee = input.assignee === undefined ? actor.email : input.assignee;
  if (assignee && assignee !== actor.email) await assertActiveMember(actor.org_id, assignee);
  const link = await checkedLink(actor, input.associated_object_metadata);
  const remind_at = deriveRemindAt(input.reminder_setting.remind_in, input.due_date, input.remind_at, input.time_zone);
  const reminder_setting = normalizeReminderSetting(input.reminder_setting);
  const errors = validateReminder({ due_date: input.due_date, remind_at, reminder_setting }, now, { due_date: true, remind_at: true });
  if (errors.length) throw invalid(errors);
  const task: Task = {
    task_id: `task_${ulid(now)}`,
    org_id: actor.org_id,
    title: input.title,
    type: input.associated_object_metadata?.type ?? 'todo',
    status: input.status,
    priority: input.priority,
    assignee,
    due_date: input.due_date,
    remind_at,
    reminder_setting,
    time_zone: input.time_zone,
    notes: input.notes,
    created_by: actor.email,
    created_at: now,
    last_updated_by: actor.email,
    last_updated_at: now,
    completed_metadata: input.status === 'closed' ? { completed_by: actor.email, completed_at: now } : null,
    associated_object_metadata: link,
  };
  await armReminder(task);
  const created = await commitWithEvents((e) => ({
    items: [e.task.create(toItem(task, 1)).commit() as TxItem, ...auditOps(e, ['TASK_CREATED'], null, task, actor.email, now)],
    events: [{ name: 'task.created', properties: { org_id: actor.org_id, task, actions: ['TASK_CREATED'] }, actor: `user:${actor.email}` }],
  }));
  if (!created) throw new Error(`task ${task.task_id} was not created (transaction cancelled)`);
  return (await viewTasks(actor, [task]))[0]!;
}

/** Tasks as the actor may see them (the guard's view; one access read for their linked chats). */
async function viewTasks(actor: Actor, tasks: Task[]): Promise<Task[]> {
  const guard = await chatGuard(actor);
  const visible = await guard.visibleChatIds(tasks.flatMap((t) => linkedChats(t)));
  return tasks.map((t) => guard.viewTask(t, visible));
}

const linkedChat = (link: Task['associated_object_metadata'] | undefined): string | null => (link ? (link.object?.chat_id ?? (link.type === 'chat' ? link.id : null)) : null);
const linkedChats = (t: Partial<Task> | null | undefined): string[] => {
  const c = linkedChat(t?.associated_object_metadata);
  return c ? [c] : [];
};

/**
 * The link of a new task, checked and completed: the chat, message or ticket must exist in the
 * actor's org and its chat must be one the actor may see (the guard); `sender_phone` comes from
 * the stored message (a message link), never from the client.
 * @throws AppError 400 validation (associated_object_metadata) when it does not exist; 403 chat.no_access
 */
async function checkedLink(actor: Actor, link: CreateTaskInput['associated_object_metadata']): Promise<Task['associated_object_metadata']> {
  if (!link) return null;
  const guard: ChatGuard = await chatGuard(actor);
  const { sender_phone: _client, ...o } = link.object ?? {};
  const missing = () => new AppError('validation', 'The chat, message or ticket this task links to does not exist.', { details: [{ field: 'associated_object_metadata', reason: 'does not exist in this workspace' }] });
  if (link.type === 'ticket') {
    const t = (await db().entities.ticket.get({ org_id: actor.org_id, ticket_id: o.ticket_id ?? link.id }).go()).data;
    if (!t) throw missing();
    await guard.assertChat(t.chat_id);
    return { ...link, object: { ...o, ticket_id: t.ticket_id, chat_id: t.chat_id } };
  }
  const chatId = link.type === 'chat' ? link.id : o.chat_id;
  if (!chatId) throw missing();
  await guard.requireChat(chatId).catch((e: unknown) => {
    throw e instanceof AppError && e.status === 404 ? missing() : e;
  });
  if (link.type === 'chat') return { ...link, object: { ...o, chat_id: chatId } };
  const m = await getMessageItem(actor.org_id, chatId, link.id).catch(() => {
    throw missing();
  });
  return { ...link, object: { ...o, chat_id: chatId, ...(m.sender_phone ? { sender_phone: m.sender_phone } : {}) } };
}

/**
 * Apply a change to a task: recompute, validate, write task + audit rows, move the wake-up,
 * publish. `build(current)` returns the next task (without bookkeeping fields).
 */
async function change(actor: Actor, taskId: string, build: (t: Task, now: number) => Task, changed: (before: Task, after: Task) => { due_date?: boolean; remind_at?: boolean }): Promise<Task> {
  return retryOnConflict(`task ${taskId}`, async () => {
    const item = await loadTask(actor, taskId);
    const before = toTaskWire(item);
    const now = Date.now();
    const draft = build(before, now);
    const after: Task = {
      ...draft,
      last_updated_by: actor.email,
      last_updated_at: now,
      completed_metadata: draft.status === 'closed' ? (before.status === 'closed' ? before.completed_metadata : { completed_by: actor.email, completed_at: now }) : null,
    };
    const actions = auditActionsFor(before, after);
    if (!actions.length) return before;
    const errors = validateReminder(after, now, changed(before, after));
    if (errors.length) throw invalid(errors);
    await armReminder(after);
    const ok = await commitWithEvents((e) => ({
      items: [
        e.task
          .put(toItem(after, item.version + 1))
          .where(({ version }, { eq }) => eq(version, item.version))
          .commit() as TxItem,
        ...auditOps(e, actions, before, after, actor.email, now),
      ],
      events: [{ name: 'task.updated', properties: { org_id: actor.org_id, task: after, actions }, actor: `user:${actor.email}` }],
    }));
    if (!ok) return RETRY;
    await disarmReminder(before, after);
    return after;
  }, { attempts: MAX_RETRIES, onExhausted: () => {
    throw new AppError('task.busy', 'Someone else is changing this task. Please try again.', { status: 409 });
  } });
}

const dueOrRemindChanged = (b: Task, a: Task) => ({ due_date: b.due_date !== a.due_date, remind_at: b.remind_at !== a.remind_at });

/**
 * PUT /tasks/{task_id}: the whole editable task (spec §7). remind_at is re-derived from the due
 * date for due-tied choices; the 'not in the past' rules apply only to values that changed.
 * @throws AppError 404 task.not_found (also for a member who may not see it); 400 validation
 */
export async function updateTask(actor: Actor, taskId: string, input: UpdateTaskInput): Promise<Task> {
  if (input.assignee) await assertActiveMember(actor.org_id, input.assignee);
  return viewTask(actor, await change(
    actor,
    taskId,
    (t) => {
      const tz = input.time_zone ?? t.time_zone;
      return {
        ...t,
        title: input.title,
        status: input.status,
        priority: input.priority,
        assignee: input.assignee,
        due_date: input.due_date,
        reminder_setting: normalizeReminderSetting(input.reminder_setting),
        remind_at: deriveRemindAt(input.reminder_setting.remind_in, input.due_date, input.remind_at, tz),
        notes: input.notes,
        time_zone: tz,
      };
    },
    dueOrRemindChanged,
  ));
}

const viewTask = async (actor: Actor, t: Task): Promise<Task> => (await viewTasks(actor, [t]))[0]!;

/** POST /tasks/{task_id}/remind-in: remind_at = now + 30 min / 1 h / 1 day / 1 week, choice custom_date (spec §4). */
export async function remindInTask(actor: Actor, taskId: string, input: RemindInInput): Promise<Task> {
  return viewTask(actor, await change(actor, taskId, (t, now) => ({ ...t, ...remindIn(t, REMIND_IN_CHOICES[input.remind_in], now) }), () => ({ remind_at: true })));
}

/**
 * POST /tasks/bulk: status / assignee / priority on many tasks; each succeeds or fails alone.
 * @returns `{ updated, failed: [{ task_id, reason }] }`
 */
export async function bulkUpdateTasks(actor: Actor, input: BulkUpdateTasksInput): Promise<{ updated: Task[]; failed: Array<{ task_id: string; reason: string }> }> {
  if (input.assignee) await assertActiveMember(actor.org_id, input.assignee);
  const ids = [...new Set(input.task_ids)];
  const out = { updated: [] as Task[], failed: [] as Array<{ task_id: string; reason: string }> };
  for (let i = 0; i < ids.length; i += 8) {
    const settled = await Promise.allSettled(
      ids.slice(i, i + 8).map((id) =>
        change(
          actor,
          id,
          (t) => ({ ...t, ...(input.status !== undefined && { status: input.status }), ...(input.assignee !== undefined && { assignee: input.assignee }), ...(input.priority !== undefined && { priority: input.priority }) }),
          () => ({}),
        ),
      ),
    );
    settled.forEach((s, j) => {
      if (s.status === 'fulfilled') out.updated.push(s.value);
      else out.failed.push({ task_id: ids[i + j]!, reason: s.reason instanceof AppError ? s.reason.message : 'Could not update this task. Please try again.' });
    });
  }
  return { ...out, updated: await viewTasks(actor, out.updated) };
}

/** GET /tasks/{task_id}. @throws 404 task.not_found */
export async function getTask(actor: Actor, taskId: string): Promise<Task> {
  return viewTask(actor, toTaskWire(await loadTask(actor, taskId)));
}

/**
 * GET /tasks: scope 'mine' = assigned to me (index byAssignee), 'all' = the org's tasks (admins;
 * spec §2 'All Tasks' is admin-only). Newest first, cursor paged (initial limit 1000, spec §7);
 * tasks linked to a chat the actor may not see are left out (the guard).
 * @throws AppError 403 task.all_forbidden for a member asking for all; 400 query.cursor
 */
export async function listTasks(actor: Actor, q: ListTasksQuery): Promise<{ tasks: Task[]; cursor: string | null }> {
  if (q.scope === 'all' && actor.role !== 'admin') throw new AppError('task.all_forbidden', 'Only admins can see all tasks.', { status: 403 });
  const e = db().entities.task;
  const all = q.scope === 'all';
  const gsi = all ? undefined : e.schema.indexes.byAssignee.index;
  const opts = (cursor: string | null, limit: number) => ({ order: 'desc' as const, limit, cursor, pages: 1, data: 'includeKeys' as const });
  const run = (cursor: string | null, limit: number) =>
    (all ? e.query.byId({ org_id: actor.org_id }).go(opts(cursor, limit)) : e.query.byAssignee({ org_id: actor.org_id, assignee_key: actor.email }).go(opts(cursor, limit))) as unknown as Promise<{ data: TaskItem[]; cursor: string | null }>;
  const guard = await chatGuard(actor);
  // tasks linked to chats the actor may not see are skipped page by page (pages stay full, the cursor resumes after the last one handed out)
  const page = await collectFiltered(run, keyCursor(gsi), null, q.limit, q.cursor ?? null, guard.pageFilter<TaskItem>((t) => linkedChat(t.associated_object_metadata as Task['associated_object_metadata'])));
  return { tasks: await viewTasks(actor, page.items.map(toTaskWire)), cursor: page.cursor };
}

/** GET /tasks/{task_id}/audit: newest first, 50 a page, TASK_UPDATED rows left out (spec §4); records pass the guard's view. @throws 404; 400 query.cursor */
export async function listTaskAudit(actor: Actor, taskId: string, cursor?: string): Promise<{ entries: TaskAuditLogRow[]; cursor: string | null }> {
  await loadTask(actor, taskId);
  const res = await withCursor(cursor, () => db().entities.taskAudit.query.byTask({ org_id: actor.org_id, task_id: taskId }).go({ order: 'desc', limit: 50, cursor: cursor ?? null }));
  const guard = await chatGuard(actor);
  const visible = await guard.visibleChatIds(res.data.flatMap((r) => [...linkedChats(r.old_record as Task | undefined), ...linkedChats(r.new_record as Task | undefined)]));
  const view = (t: Task | undefined) => (t ? (t.associated_object_metadata ? guard.viewTask(t, visible) : t) : null);
  return {
    entries: res.data
      .filter((r) => isVisibleAuditAction(r.action as TaskAuditAction))
      .map((r) => ({
        log_id: r.log_id,
        task_id: r.task_id,
        org_id: r.org_id,
        action: r.action as TaskAuditAction,
        performed_by: r.performed_by,
        timestamp: r.timestamp,
        old_record: view(r.old_record as Task | undefined),
        new_record: view(r.new_record as Task | undefined),
      })),
    cursor: res.cursor ?? null,
  };
}

/**
 * A reminder wake-up (task-reminders consumer). Ignored when the task is gone, closed, or no
 * longer reminds at `remindAt` (it was moved: a newer wake-up exists). Otherwise publishes
 * `task.reminder_due` (in-app notification to the assignee, event id deterministic per task and
 * time) and, for a repeating reminder, moves remind_at to the next occurrence of the series
 * anchored at the due date (missed ones skipped), with a REMIND_AT_CHANGED row by 'system'.
 * @returns what happened, for logs and tests
 */
export async function fireTaskReminder(orgId: string, taskId: string, remindAt: number): Promise<'fired' | 'rearmed' | 'stale'> {
  const system: Actor = { email: 'system', user_id: 'system', org_id: orgId, role: 'admin' };
  const item = (await db().entities.task.get({ org_id: orgId, task_id: taskId }).go()).data;
  if (!item) return 'stale';
  const task = toTaskWire(item);
  if (task.status === 'closed' || task.remind_at !== remindAt) return 'stale';
  const events: PublishInput[] = [{ name: 'task.reminder_due', properties: { org_id: orgId, task, remind_at: remindAt }, actor: 'system', id: `task.reminder_due:${taskId}:${remindAt}` }];
  const repeat = task.reminder_setting.remind_in === 'repeat' ? task.reminder_setting.repeat : null;
  if (!repeat || task.due_date == null) {
    // no write causes this event (the wake-up does): published straight away; a failure fails the
    // queue record, which is retried (the id is deterministic, consumers dedupe)
    await publishAll(events);
    return 'fired';
  }
  await publishAll(events);
  const next = nextOccurrence(task.due_date, repeat, Math.max(remindAt, Date.now()), task.time_zone);
  if (next == null) return 'fired';
  await change(system, taskId, (t) => ({ ...t, remind_at: next }), () => ({}));
  return 'rearmed';
}
