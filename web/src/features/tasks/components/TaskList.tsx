/**
 * The list view of the task panel:
 * - reminder notifications (task.reminder_due for my tasks), each opening its task;
 * - filters (spec §9): due date range (normalizeDateRange, shown 'DD MMM YY'), priority, status and
 *   assignee (incl. Unassigned), each with ANY / ALL / NOT, combined with ANY / ALL; sorts
 *   (default created_at desc) — applied here with filterTasks / sortTasks over the loaded tasks;
 * - the list, virtualized (TanStack Virtual: 50 items at first, overscan 30): closed rows grey,
 *   overdue ones red; status set from each row's menu; a context menu (right click, ⋯ button,
 *   Shift+F10) with 'Remind In' (30 minutes, 1 hour, 1 day, 1 week) and 'Close Task(s)';
 * - select mode: multi-select with bulk status / assignee / priority / 'Close Task(s)'
 *   (POST /tasks/bulk, per-task failures listed);
 * - 'Load more tasks' once 500 or more are loaded (+500 with the cursor).
 */
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { useCallback, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { FilterCondition, Task, TaskFilters, TaskPriority, TaskSort, TaskStatus } from '#shared/task/task.schemas.ts';
import { DEFAULT_TASK_SORT } from '#shared/task/task.schemas.ts';
import { MAX_BULK_TASKS, REMIND_IN_CHOICES, TASK_LOAD_MORE, TASK_SORTS } from '#shared/task/task.schemas.ts';
import { filterTasks, formatDay, isOverdue, normalizeDateRange, sortTasks } from '#shared/task/task.rules.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useSession } from '../../../app/session.tsx';
import { useTasks } from '../hooks/useTasks.tsx';
import { useToast } from '../../../app/toast.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { MessageMenu, type MenuItem } from '../../../components/ui/Menu.tsx';
import { PriorityTag } from '../../tickets/index.ts';
import {
  REMIND_IN_LABELS,
  TASK_PRIORITY_OPTIONS,
  TASK_SORT_LABELS,
  TASK_STATUS_OPTIONS,
  browserTimeZone,
  editableOf,
  fromDayInput,
  memberLabel,
  taskDueText,
  toDayInput,
  type RemindInKey,
} from '../api/tasks.ts';
import { useAssignableMembers } from '../hooks/useAssignableMembers.ts';
import { useNow } from '../hooks/useNow.ts';

const ROW_HEIGHT = 68;
const INITIAL_ITEMS = 50;
const OVERSCAN = 30;
const CONDITIONS: FilterCondition[] = ['ANY', 'ALL', 'NOT'];
const FAR = 100 * 365 * 86_400_000;

interface FilterUi {
  dueFrom: string;
  dueTo: string;
  dueCond: FilterCondition;
  priority: TaskPriority[];
  priorityCond: FilterCondition;
  status: TaskStatus[];
  statusCond: FilterCondition;
  /** emails; '' stands for Unassigned */
  assignee: string[];
  assigneeCond: FilterCondition;
  overall: 'ANY' | 'ALL';
}

const EMPTY: FilterUi = { dueFrom: '', dueTo: '', dueCond: 'ANY', priority: [], priorityCond: 'ANY', status: [], statusCond: 'ANY', assignee: [], assigneeCond: 'ANY', overall: 'ALL' };

function dueRange(f: FilterUi, tz: string): { from: number; to: number } | null {
  const a = fromDayInput(f.dueFrom);
  const b = fromDayInput(f.dueTo);
  if (a == null && b == null) return null;
  return normalizeDateRange(a ?? (b as number) - FAR, b ?? (a as number) + FAR, tz);
}

function toFilters(f: FilterUi, tz: string): TaskFilters {
  const range = dueRange(f, tz);
  return {
    due: range ? { ...range, condition: f.dueCond } : null,
    priority: f.priority.length ? { values: f.priority, condition: f.priorityCond } : null,
    status: f.status.length ? { values: f.status, condition: f.statusCond } : null,
    assignee: f.assignee.length ? { values: f.assignee.map((a) => (a === '' ? null : a)), condition: f.assigneeCond } : null,
    overall: f.overall,
  };
}

const activeCount = (f: FilterUi): number => (f.dueFrom || f.dueTo ? 1 : 0) + (f.priority.length ? 1 : 0) + (f.status.length ? 1 : 0) + (f.assignee.length ? 1 : 0);

const toggleIn = <T,>(list: T[], v: T): T[] => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

function ConditionSelect({ value, onChange, name }: { value: FilterCondition; onChange: (c: FilterCondition) => void; name: string }) {
  return (
    <select className="cond-select" aria-label={`${name} condition`} data-testid={`task-filter-${name.toLowerCase().replace(/\s+/g, '-')}-condition`} value={value} onChange={(e) => onChange(e.target.value as FilterCondition)}>
      {CONDITIONS.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </select>
  );
}

export function TaskList() {
  const { org, user } = useSession();
  const tasksState = useTasks();
  const { open, tasks, status, error, cursor, more, reload, loadMore, upsert, openEdit, openAudit, openNew, notifications, dismissNotification } = tasksState;
  const toast = useToast();
  const now = useNow(30_000, open);
  const members = useAssignableMembers();
  const tz = browserTimeZone();
  const me = user.email.toLowerCase();

  const [ui, setUi] = useState<FilterUi>(EMPTY);
  const [sort, setSort] = useState<TaskSort>(DEFAULT_TASK_SORT);
  const [showFilters, setShowFilters] = useState(false);
  const [selectMode, setSelectMode] = useState(false);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [bulkBusy, setBulkBusy] = useState(false);
  const [failures, setFailures] = useState<Array<{ task_id: string; reason: string }>>([]);
  const [menu, setMenu] = useState<{ at: { x: number; y: number }; task: Task; restore: HTMLElement | null } | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const filters = useMemo(() => toFilters(ui, tz), [ui, tz]);
  const shown = useMemo(() => sortTasks(filterTasks(tasks, filters), sort), [tasks, filters, sort]);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.task_id, t])), [tasks]);
  const active = activeCount(ui);
  const range = dueRange(ui, tz);

  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: { width: 400, height: INITIAL_ITEMS * ROW_HEIGHT },
    getItemKey: (i) => shown[i]?.task_id ?? i,
  });

  // ---- changes ----------------------------------------------------------------------------
  const setStatus = useCallback(
    async (t: Task, s: TaskStatus) => {
      if (t.status === s) return;
      upsert({ ...t, status: s });
      try {
        upsert(await api.updateTask(org.org_id, t.task_id, { ...editableOf(t), status: s }));
      } catch (e) {
        upsert(t);
        toast.show(errorMessage(e), 'error');
      }
    },
    [org.org_id, upsert, toast],
  );

  const remindIn = useCallback(
    async (t: Task, key: RemindInKey) => {
      try {
        upsert(await api.remindTaskIn(org.org_id, t.task_id, { remind_in: key }));
        toast.show(`Reminder set in ${REMIND_IN_LABELS[key]}`, 'success');
      } catch (e) {
        toast.show(errorMessage(e), 'error');
      }
    },
    [org.org_id, upsert, toast],
  );

  const bulk = useCallback(
    async (ids: string[], change: { status?: TaskStatus; assignee?: string | null; priority?: TaskPriority }) => {
      if (ids.length === 0) return;
      if (ids.length > MAX_BULK_TASKS) {
        toast.show(`At most ${MAX_BULK_TASKS} tasks at once.`, 'error');
        return;
      }
      setBulkBusy(true);
      setFailures([]);
      try {
        const r = await api.bulkUpdateTasks(org.org_id, { task_ids: ids, ...change });
        for (const t of r.updated) upsert(t);
        setFailures(r.failed);
        setChecked(new Set(r.failed.map((f) => f.task_id).filter((id) => byId.has(id))));
        if (r.failed.length === 0) toast.show(`${r.updated.length} task${r.updated.length === 1 ? '' : 's'} updated`, 'success');
        else toast.show(`${r.failed.length} of ${r.failed.length + r.updated.length} tasks could not be updated`, 'error');
      } catch (e) {
        toast.show(errorMessage(e), 'error');
      } finally {
        setBulkBusy(false);
      }
    },
    [org.org_id, upsert, toast, byId],
  );

  // ---- row menu -----------------------------------------------------------------------------
  const menuItems = (t: Task): MenuItem[] => {
    const closeIds = selectMode && checked.has(t.task_id) ? [...checked] : [t.task_id];
    return [
      { id: 'edit', label: 'Edit task', testId: 'task-menu-edit', onSelect: () => openEdit(t.task_id) },
      ...(Object.keys(REMIND_IN_CHOICES) as RemindInKey[]).map((k) => ({
        id: `remind-${k}`,
        label: `Remind In ${REMIND_IN_LABELS[k]}`,
        testId: `task-menu-remind-${k}`,
        onSelect: () => void remindIn(t, k),
      })),
      { id: 'close', label: 'Close Task(s)', testId: 'task-menu-close', onSelect: () => void bulk(closeIds, { status: 'closed' }) },
      { id: 'audit', label: 'Audit log', testId: 'task-menu-audit', onSelect: () => openAudit(t.task_id, 'list') },
    ];
  };
  const openMenuAt = (t: Task, at: { x: number; y: number }, restore: HTMLElement | null) => setMenu({ at, task: t, restore });
  const closeMenu = useCallback(
    (restoreFocus: boolean) => {
      setMenu((m) => {
        if (restoreFocus) m?.restore?.focus();
        return null;
      });
    },
    [],
  );

  const allChecked = shown.length > 0 && shown.every((t) => checked.has(t.task_id));
  const toggle = (id: string) => setChecked((prev) => new Set(toggleIn([...prev], id)));

  const visibleNotifications = notifications.slice(0, 5);

  return (
    <div className="task-list-view">
      {visibleNotifications.length > 0 && (
        <section className="task-notifications" aria-label="Reminders">
          {visibleNotifications.map((n) => (
            <div key={n.key} className={`task-notification ${n.read ? '' : 'unread'}`} data-testid="task-notification" data-task-id={n.taskId}>
              <Icon name="bell" size={16} />
              <button type="button" className="task-notification-open" onClick={() => openEdit(n.taskId)}>
                <span className="task-notification-title">Reminder: {n.title}</span>
                {n.remindAt != null && <span className="muted small">{taskDueText(n.remindAt)}</span>}
              </button>
              <button type="button" className="icon-btn" aria-label={`Dismiss reminder for ${n.title}`} onClick={() => dismissNotification(n.key)}>
                <Icon name="close" size={14} />
              </button>
            </div>
          ))}
        </section>
      )}

      <div className="task-toolbar">
        <button type="button" className="btn btn-primary small-btn" data-testid="task-new" onClick={() => openNew({})}>
          <Icon name="plus" size={16} />
          <span>New task</span>
        </button>
        <button
          type="button"
          className={`btn small-btn ${selectMode ? 'pressed' : ''}`}
          data-testid="task-select-mode"
          aria-pressed={selectMode}
          onClick={() => {
            setSelectMode((s) => !s);
            setChecked(new Set());
            setFailures([]);
          }}
        >
          {selectMode ? 'Done' : 'Select'}
        </button>
        <button
          type="button"
          className={`icon-btn filters-toggle-btn ${showFilters || active ? 'active' : ''}`}
          data-testid="task-filters-toggle"
          aria-expanded={showFilters}
          aria-controls="task-filters"
          aria-label={`Filters and sort${active ? `, ${active} active` : ''}`}
          title="Filters and sort"
          onClick={() => setShowFilters((v) => !v)}
        >
          <Icon name="filter" size={18} />
          {active > 0 && <span className="icon-badge">{active}</span>}
        </button>
        <label className="task-sort">
          <span className="visually-hidden">Sort tasks</span>
          <select value={sort} onChange={(e) => setSort(e.target.value as TaskSort)} data-testid="task-filter-sort">
            {TASK_SORTS.map((s) => (
              <option key={s} value={s}>
                {TASK_SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>

      {showFilters && (
        <div id="task-filters" className="task-filters" role="group" aria-label="Task filters" data-testid="task-filters">
          <fieldset className="task-filter">
            <legend>Due date</legend>
            <div className="task-filter-row">
              <input
                type="date"
                aria-label="Due from"
                data-testid="task-filter-due-from"
                value={ui.dueFrom}
                onChange={(e) => {
                  const from = e.target.value;
                  setUi((u) => {
                    const a = fromDayInput(from);
                    const b = fromDayInput(u.dueTo);
                    if (a != null && b != null) {
                      const r = normalizeDateRange(a, b, tz);
                      return { ...u, dueFrom: toDayInput(r.from), dueTo: toDayInput(r.to) };
                    }
                    return { ...u, dueFrom: from };
                  });
                }}
              />
              <span aria-hidden="true">–</span>
              <input
                type="date"
                aria-label="Due to"
                data-testid="task-filter-due-to"
                value={ui.dueTo}
                onChange={(e) => {
                  const to = e.target.value;
                  setUi((u) => {
                    const a = fromDayInput(u.dueFrom);
                    const b = fromDayInput(to);
                    if (a != null && b != null) {
                      const r = normalizeDateRange(a, b, tz);
                      return { ...u, dueFrom: toDayInput(r.from), dueTo: toDayInput(r.to) };
                    }
                    return { ...u, dueTo: to };
                  });
                }}
              />
              <ConditionSelect name="Due" value={ui.dueCond} onChange={(c) => setUi((u) => ({ ...u, dueCond: c }))} />
            </div>
            {range && (
              <span className="muted small" data-testid="task-filter-due-summary">
                {ui.dueFrom ? formatDay(range.from, tz) : 'Any time'} – {ui.dueTo ? formatDay(range.to, tz) : 'any time'}
              </span>
            )}
          </fieldset>
          <fieldset className="task-filter">
            <legend>Priority</legend>
            <div className="task-filter-row">
              {TASK_PRIORITY_OPTIONS.map(([p, l]) => (
                <label key={p} className={`label-option ${ui.priority.includes(p) ? 'on' : ''}`}>
                  <input type="checkbox" data-testid={`task-filter-priority-${p}`} checked={ui.priority.includes(p)} onChange={() => setUi((u) => ({ ...u, priority: toggleIn(u.priority, p) }))} />
                  {l}
                </label>
              ))}
              <ConditionSelect name="Priority" value={ui.priorityCond} onChange={(c) => setUi((u) => ({ ...u, priorityCond: c }))} />
            </div>
          </fieldset>
          <fieldset className="task-filter">
            <legend>Status</legend>
            <div className="task-filter-row">
              {TASK_STATUS_OPTIONS.map(([s, l]) => (
                <label key={s} className={`label-option ${ui.status.includes(s) ? 'on' : ''}`}>
                  <input type="checkbox" data-testid={`task-filter-status-${s}`} checked={ui.status.includes(s)} onChange={() => setUi((u) => ({ ...u, status: toggleIn(u.status, s) }))} />
                  {l}
                </label>
              ))}
              <ConditionSelect name="Status" value={ui.statusCond} onChange={(c) => setUi((u) => ({ ...u, statusCond: c }))} />
            </div>
          </fieldset>
          <fieldset className="task-filter">
            <legend>Assignee</legend>
            <div className="task-filter-row">
              <div className="task-filter-assignees" role="group" aria-label="Assignees">
                {[{ email: '', member_name: 'Unassigned' }, ...members].map((m) => (
                  <label key={m.email || 'unassigned'} className={`label-option ${ui.assignee.includes(m.email) ? 'on' : ''}`}>
                    <input
                      type="checkbox"
                      data-testid={`task-filter-assignee-${m.email || 'unassigned'}`}
                      checked={ui.assignee.includes(m.email)}
                      onChange={() => setUi((u) => ({ ...u, assignee: toggleIn(u.assignee, m.email) }))}
                    />
                    {m.email ? memberLabel(m.email, members, me) : 'Unassigned'}
                  </label>
                ))}
              </div>
              <ConditionSelect name="Assignee" value={ui.assigneeCond} onChange={(c) => setUi((u) => ({ ...u, assigneeCond: c }))} />
            </div>
          </fieldset>
          <div className="task-filter-foot">
            <label className="inline-inputs">
              <span>Match</span>
              <select data-testid="task-filter-overall" value={ui.overall} onChange={(e) => setUi((u) => ({ ...u, overall: e.target.value as 'ANY' | 'ALL' }))}>
                <option value="ALL">ALL filters</option>
                <option value="ANY">ANY filter</option>
              </select>
            </label>
            {active > 0 && (
              <button type="button" className="link-btn small" data-testid="task-filter-clear" onClick={() => setUi(EMPTY)}>
                Clear filters
              </button>
            )}
          </div>
        </div>
      )}

      {selectMode && (
        <div className="bulk-bar task-bulk-bar" role="region" aria-label="Bulk actions" data-testid="task-bulk-bar">
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
          <select aria-label="Set status of the selected tasks" data-testid="task-bulk-status" value="" disabled={bulkBusy || checked.size === 0} onChange={(e) => e.target.value && void bulk([...checked], { status: e.target.value as TaskStatus })}>
            <option value="">Status…</option>
            {TASK_STATUS_OPTIONS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
          <select
            aria-label="Assign the selected tasks to"
            data-testid="task-bulk-assignee"
            value=""
            disabled={bulkBusy || checked.size === 0}
            onChange={(e) => e.target.value && void bulk([...checked], { assignee: e.target.value === '__none__' ? null : e.target.value })}
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
            onChange={(e) => e.target.value && void bulk([...checked], { priority: Number(e.target.value) as TaskPriority })}
          >
            <option value="">Priority…</option>
            {TASK_PRIORITY_OPTIONS.map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
          <button type="button" className="btn small-btn" data-testid="task-bulk-close" disabled={bulkBusy || checked.size === 0} onClick={() => void bulk([...checked], { status: 'closed' })}>
            Close Task(s)
          </button>
          {bulkBusy && <span className="muted small">Updating…</span>}
        </div>
      )}
      {failures.length > 0 && (
        <div className="bulk-failures" role="alert" data-testid="task-bulk-failures">
          <div className="bulk-failures-head">
            <strong>
              {failures.length} task{failures.length === 1 ? '' : 's'} not updated
            </strong>
            <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => setFailures([])}>
              <Icon name="close" size={16} />
            </button>
          </div>
          <ul>
            {failures.map((f) => (
              <li key={f.task_id}>
                {byId.get(f.task_id)?.title ?? f.task_id} — {f.reason}
              </li>
            ))}
          </ul>
        </div>
      )}

      <div className="task-count muted small" aria-live="polite" data-testid="task-count" data-count={shown.length}>
        {status === 'ready' && (active > 0 ? `${shown.length} of ${tasks.length}${cursor ? '+' : ''} tasks` : `${tasks.length}${cursor ? '+' : ''} task${tasks.length === 1 ? '' : 's'}`)}
      </div>

      <div className="task-list-scroll" ref={scrollRef} data-testid="task-list">
        {status === 'loading' && <ListSkeleton rows={5} label="Loading tasks" />}
        {status === 'error' && <LoadError what="tasks" error={error} onRetry={reload} />}
        {status === 'ready' && shown.length === 0 && (
          <div className="state-box empty" data-testid="task-empty">
            {tasks.length > 0 ? (
              <>
                <p>No tasks match these filters.</p>
                <button type="button" className="btn" onClick={() => setUi(EMPTY)}>
                  Clear filters
                </button>
              </>
            ) : (
              <>
                <p>No tasks yet.</p>
                <p className="muted small">Create one with “New task”, or from a chat, a message’s menu or a ticket.</p>
              </>
            )}
          </div>
        )}
        {status === 'ready' && shown.length > 0 && (
          <div role="list" aria-label="Tasks" style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const t = shown[v.index];
              if (!t) return null;
              return (
                <TaskRow
                  key={v.key}
                  t={t}
                  style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: v.size, transform: `translateY(${v.start}px)` }}
                  overdue={isOverdue(t, now)}
                  selectMode={selectMode}
                  checked={checked.has(t.task_id)}
                  onToggle={() => toggle(t.task_id)}
                  onOpen={() => openEdit(t.task_id)}
                  onStatus={(s) => void setStatus(t, s)}
                  onMenu={(at, restore) => openMenuAt(t, at, restore)}
                  assigneeText={memberLabel(t.assignee, members, me)}
                />
              );
            })}
          </div>
        )}
        {status === 'ready' && tasks.length >= TASK_LOAD_MORE && cursor && (
          <div className="list-more">
            <button type="button" className="btn" data-testid="task-load-more" onClick={loadMore} disabled={more === 'loading'}>
              {more === 'loading' ? 'Loading…' : more === 'error' ? 'Could not load more. Retry' : 'Load more tasks'}
            </button>
          </div>
        )}
      </div>
      {menu && <MessageMenu at={menu.at} items={menuItems(menu.task)} onClose={closeMenu} label={`Actions for ${menu.task.title}`} testId="task-menu" />}
    </div>
  );
}

function TaskRow({
  t,
  style,
  overdue,
  selectMode,
  checked,
  onToggle,
  onOpen,
  onStatus,
  onMenu,
  assigneeText,
}: {
  t: Task;
  style: CSSProperties;
  overdue: boolean;
  selectMode: boolean;
  checked: boolean;
  onToggle: () => void;
  onOpen: () => void;
  onStatus: (s: TaskStatus) => void;
  onMenu: (at: { x: number; y: number }, restore: HTMLElement | null) => void;
  assigneeText: string;
}) {
  const menuBtn = useRef<HTMLButtonElement>(null);
  const fromButton = () => {
    const r = menuBtn.current?.getBoundingClientRect();
    onMenu(r ? { x: r.right - 200, y: r.bottom + 4 } : { x: 100, y: 100 }, menuBtn.current);
  };
  const onContextMenu = (e: MouseEvent) => {
    e.preventDefault();
    onMenu({ x: e.clientX, y: e.clientY }, menuBtn.current);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      e.preventDefault();
      fromButton();
    }
  };
  const link = t.associated_object_metadata;
  return (
    <div
      role="listitem"
      className={`task-row ${checked ? 'checked' : ''}`}
      style={style}
      data-testid="task-row"
      data-task-id={t.task_id}
      data-status={t.status}
      data-overdue={String(overdue)}
      onContextMenu={onContextMenu}
      onKeyDown={onKeyDown}
    >
      {selectMode && (
        <label className="check">
          <input type="checkbox" checked={checked} onChange={onToggle} aria-label={`Select ${t.title}`} data-testid="task-row-check" />
        </label>
      )}
      <button type="button" className="task-row-open" onClick={selectMode ? onToggle : onOpen} title={t.title}>
        <span className="task-row-title">{t.title}</span>
        <span className="task-row-meta">
          <PriorityTag priority={t.priority} />
          {t.due_date != null && <span className={overdue ? 'overdue' : ''}>Due {taskDueText(t.due_date)}</span>}
          {t.remind_at != null && t.reminder_setting.remind_in !== 'none' && (
            <span className="task-remind" title={`Reminder ${taskDueText(t.remind_at)}`}>
              <Icon name="bell" size={12} />
              <span className="visually-hidden">Reminder {taskDueText(t.remind_at)}</span>
            </span>
          )}
          {link && <span className="tag">{link.type === 'ticket' ? 'Ticket' : link.type === 'message' ? (link.object?.is_private_note ? 'Note' : 'Message') : 'Chat'}</span>}
          <span className={t.assignee ? 'task-assignee' : 'task-assignee muted'} title={assigneeText}>
            {assigneeText}
          </span>
        </span>
      </button>
      <label className="task-row-status">
        <span className="visually-hidden">Status of {t.title}</span>
        <select value={t.status} onChange={(e) => onStatus(e.target.value as TaskStatus)} data-testid="task-row-status" className={`status-select status-${t.status}`}>
          {TASK_STATUS_OPTIONS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <button ref={menuBtn} type="button" className="icon-btn task-row-more" data-testid="task-row-menu-button" aria-label={`Actions for ${t.title}`} aria-haspopup="menu" onClick={fromButton}>
        <Icon name="more" size={18} />
      </button>
    </div>
  );
}
