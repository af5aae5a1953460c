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
import { useCallback, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Task, TaskSort } from '#shared/task/task.schemas.ts';
import { DEFAULT_TASK_SORT, REMIND_IN_CHOICES, TASK_LOAD_MORE, TASK_SORTS } from '#shared/task/task.schemas.ts';
import { filterTasks, isOverdue, sortTasks } from '#shared/task/task.rules.ts';
import { ListSkeleton, LoadError } from '../../../components/ui/ListStates.tsx';
import { useSession } from '../../../app/session.tsx';
import { Icon } from '../../../components/ui/Icon.tsx';
import { MessageMenu, type MenuItem } from '../../../components/ui/Menu.tsx';
import { REMIND_IN_LABELS, TASK_SORT_LABELS, browserTimeZone, memberLabel, type RemindInKey } from '../api/tasks.ts';
import { useTasks } from '../hooks/useTasks.tsx';
import { useAssignableMembers } from '../hooks/useAssignableMembers.ts';
import { useNow } from '../hooks/useNow.ts';
import { useTaskChanges } from '../hooks/useTaskChanges.ts';
import { activeCount, EMPTY_FILTERS, TaskFilterPanel, toFilters, type FilterUi } from './TaskFilterPanel.tsx';
import { TaskBulkBar, TaskBulkFailures } from './TaskBulkBar.tsx';
import { TaskNotifications } from './TaskNotifications.tsx';
import { TaskRow } from './TaskRow.tsx';

const ROW_HEIGHT = 68;
const INITIAL_ITEMS = 50;
const OVERSCAN = 30;

const toggleIn = <T,>(list: T[], v: T): T[] => (list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

export function TaskList() {
  const { org, user } = useSession();
  const tasksState = useTasks();
  const { open, tasks, status, error, cursor, more, reload, loadMore, upsert, openEdit, openAudit, openNew, notifications, dismissNotification } = tasksState;
  const now = useNow(30_000, open);
  const members = useAssignableMembers();
  const tz = browserTimeZone();
  const me = user.email.toLowerCase();

  const [ui, setUi] = useState<FilterUi>(EMPTY_FILTERS);
  const [sort, setSort] = useState<TaskSort>(DEFAULT_TASK_SORT);
  const [showFilters, setShowFilters] = useState(false);
  const [selectMode, setSelectMode] = useState(false);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [menu, setMenu] = useState<{ at: { x: number; y: number }; task: Task; restore: HTMLElement | null } | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const filters = useMemo(() => toFilters(ui, tz), [ui, tz]);
  const shown = useMemo(() => sortTasks(filterTasks(tasks, filters), sort), [tasks, filters, sort]);
  const byId = useMemo(() => new Map(tasks.map((t) => [t.task_id, t])), [tasks]);
  const active = activeCount(ui);

  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: { width: 400, height: INITIAL_ITEMS * ROW_HEIGHT },
    getItemKey: (i) => shown[i]?.task_id ?? i,
  });

  const known = useCallback((id: string) => byId.has(id), [byId]);
  const { setStatus, remindIn, bulk, bulkBusy, failures, setFailures } = useTaskChanges(org.org_id, upsert, known, setChecked);

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

  const toggle = (id: string) => setChecked((prev) => new Set(toggleIn([...prev], id)));

  return (
    <div className="task-list-view">
      <TaskNotifications notifications={notifications} onOpen={openEdit} onDismiss={dismissNotification} />

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
      {showFilters && <TaskFilterPanel ui={ui} setUi={setUi} members={members} me={me} tz={tz} />}
      {selectMode && <TaskBulkBar shown={shown} checked={checked} setChecked={setChecked} bulkBusy={bulkBusy} bulk={(ids, change) => void bulk(ids, change)} members={members} me={me} />}
      {failures.length > 0 && <TaskBulkFailures failures={failures} byId={byId} onDismiss={() => setFailures([])} />}

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
                <button type="button" className="btn" onClick={() => setUi(EMPTY_FILTERS)}>
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
                  onStatus={(s) => setStatus(t, s)}
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
