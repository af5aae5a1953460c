/**
 * Task state of the current organization, shared by the top-bar button, the task panel and the
 * places that create tasks (chat header, message menu, ticket detail):
 * - the panel: open or closed, and its view (list, edit, new with a prefill, audit log);
 * - the loaded tasks (GET /tasks?scope=mine|all, limit 1000 at start, 'Load more tasks' +500 with
 *   the cursor; spec §7, §9), fetched on the first open and kept live from task.* events;
 * - reminder notifications: task.reminder_due for a task assigned to me shows a toast and a
 *   notification entry (unread count on the tasks button).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AssociatedObjectMetadata, Task } from '#shared/task/task.schemas.ts';
import { TASK_FETCH_LIMIT, TASK_LOAD_MORE } from '#shared/task/task.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { removeTask, upsertTasks } from '../api/tasks.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useSession } from '../../../app/session.tsx';
import { useToast } from '../../../app/toast.tsx';

export interface NewTaskPrefill {
  title?: string;
  associated?: AssociatedObjectMetadata | null;
}

export type TaskView = { kind: 'list' } | { kind: 'edit'; taskId: string } | { kind: 'new'; prefill: NewTaskPrefill; seq: number } | { kind: 'audit'; taskId: string; back: 'list' | 'edit' };

export interface TaskNotification {
  key: string;
  taskId: string;
  title: string;
  remindAt: number | null;
  receivedAt: number;
  read: boolean;
}

export type TaskScope = 'mine' | 'all';

export interface TasksState {
  open: boolean;
  view: TaskView;
  openPanel: () => void;
  closePanel: () => void;
  togglePanel: () => void;
  showList: () => void;
  openNew: (prefill?: NewTaskPrefill) => void;
  openEdit: (taskId: string) => void;
  openAudit: (taskId: string, back?: 'list' | 'edit') => void;

  isAdmin: boolean;
  scope: TaskScope;
  setScope: (s: TaskScope) => void;
  tasks: Task[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  cursor: string | null;
  more: 'idle' | 'loading' | 'error';
  reload: () => void;
  loadMore: () => void;
  /** a task changed here (created, saved, bulk, rollback): put it in the list as is */
  upsert: (t: Task) => void;


  notifications: TaskNotification[];
  unread: number;
  markNotificationsRead: () => void;
  dismissNotification: (key: string) => void;
}

const TasksContext = createContext<TasksState | null>(null);

export function useTasks(): TasksState {
  const v = useContext(TasksContext);
  if (!v) throw new Error('useTasks outside TasksProvider');
  return v;
}

/** The stable actions only (no re-render when tasks change): for the chat header, message menus, ticket detail. */
export type TaskActions = Pick<TasksState, 'openNew' | 'openEdit' | 'openPanel'>;
const TaskActionsContext = createContext<TaskActions>({ openNew: () => undefined, openEdit: () => undefined, openPanel: () => undefined });
export const useTaskActions = (): TaskActions => useContext(TaskActionsContext);

export function TasksProvider({ children }: { children: ReactNode }) {
  const { org, user } = useSession();
  const { subscribe } = useInbox();
  const toast = useToast();
  const me = user.email.toLowerCase();
  const isAdmin = org.role === 'admin';

  const [open, setOpen] = useState(false);
  const [view, setView] = useState<TaskView>({ kind: 'list' });
  const [scope, setScopeState] = useState<TaskScope>('mine');
  const [tasks, setTasks] = useState<Task[]>([]);
  const [status, setStatus] = useState<TasksState['status']>('idle');
  const [error, setError] = useState<string | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState<TasksState['more']>('idle');
  const [notifications, setNotifications] = useState<TaskNotification[]>([]);
  const gen = useRef(0);
  const scopeRef = useRef(scope);
  scopeRef.current = scope;
  const statusRef = useRef(status);
  statusRef.current = status;
  const newSeq = useRef(0);
  const notifiedKeys = useRef(new Set<string>());

  const visible = useCallback((t: Task) => scopeRef.current === 'all' || (t.assignee ?? '').toLowerCase() === me, [me]);

  const load = useCallback(
    (s: TaskScope) => {
      const n = ++gen.current;
      setStatus('loading');
      setError(null);
      setMore('idle');
      api
        .listTasks(org.org_id, s, null, TASK_FETCH_LIMIT)
        .then((p) => {
          if (n !== gen.current) return;
          setTasks(p.items);
          setCursor(p.cursor);
          setStatus('ready');
        })
        .catch((e) => {
          if (n !== gen.current) return;
          setError(errorMessage(e));
          setStatus('error');
        });
    },
    [org.org_id],
  );

  const reload = useCallback(() => load(scopeRef.current), [load]);

  const loadMore = useCallback(() => {
    if (!cursor || more === 'loading') return;
    const n = gen.current;
    setMore('loading');
    api
      .listTasks(org.org_id, scopeRef.current, cursor, TASK_LOAD_MORE)
      .then((p) => {
        if (n !== gen.current) return;
        setTasks((prev) => upsertTasks(prev, p.items));
        setCursor(p.cursor);
        setMore('idle');
      })
      .catch(() => n === gen.current && setMore('error'));
  }, [org.org_id, cursor, more]);

  const setScope = useCallback(
    (s: TaskScope) => {
      const next = isAdmin ? s : 'mine';
      if (next === scopeRef.current) return;
      scopeRef.current = next;
      setScopeState(next);
      setTasks([]);
      setCursor(null);
      load(next);
    },
    [isAdmin, load],
  );

  // first open: the tasks (the panel's pickers fetch the members, lib/members.ts)
  useEffect(() => {
    if (open && statusRef.current === 'idle') load(scopeRef.current);
  }, [open, load]);

  const upsert = useCallback((t: Task) => setTasks((prev) => (visible(t) ? upsertTasks(prev, [t]) : removeTask(prev, t.task_id))), [visible]);

  // realtime
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind === 'resync') {
          if (statusRef.current !== 'idle') load(scopeRef.current);
          return;
        }
        if (e.kind !== 'task') return;
        if (statusRef.current !== 'idle') upsert(e.task);
        if (e.type === 'task.reminder_due' && (e.task.assignee ?? '').toLowerCase() === me) {
          const key = `${e.task.task_id}:${e.remindAt ?? e.task.remind_at ?? Date.now()}`;
          if (notifiedKeys.current.has(key)) return;
          notifiedKeys.current.add(key);
          const entry: TaskNotification = { key, taskId: e.task.task_id, title: e.task.title, remindAt: e.remindAt ?? e.task.remind_at, receivedAt: Date.now(), read: false };
          setNotifications((prev) => [entry, ...prev].slice(0, 50));
          toast.show(`Reminder: ${e.task.title}`, 'info');
        }
      }),
    [subscribe, upsert, load, me, toast],
  );

  const openPanel = useCallback(() => setOpen(true), []);
  const closePanel = useCallback(() => setOpen(false), []);
  const togglePanel = useCallback(() => setOpen((o) => !o), []);
  const showList = useCallback(() => setView({ kind: 'list' }), []);
  const openNew = useCallback((prefill: NewTaskPrefill = {}) => {
    newSeq.current += 1;
    setView({ kind: 'new', prefill, seq: newSeq.current });
    setOpen(true);
  }, []);
  const openEdit = useCallback((taskId: string) => {
    setView({ kind: 'edit', taskId });
    setOpen(true);
  }, []);
  const openAudit = useCallback((taskId: string, back: 'list' | 'edit' = 'list') => {
    setView({ kind: 'audit', taskId, back });
    setOpen(true);
  }, []);

  const markNotificationsRead = useCallback(() => setNotifications((prev) => (prev.some((n) => !n.read) ? prev.map((n) => ({ ...n, read: true })) : prev)), []);
  const dismissNotification = useCallback((key: string) => setNotifications((prev) => prev.filter((n) => n.key !== key)), []);
  const unread = notifications.filter((n) => !n.read).length;

  const value = useMemo<TasksState>(
    () => ({
      open,
      view,
      openPanel,
      closePanel,
      togglePanel,
      showList,
      openNew,
      openEdit,
      openAudit,
      isAdmin,
      scope,
      setScope,
      tasks,
      status,
      error,
      cursor,
      more,
      reload,
      loadMore,
      upsert,
      notifications,
      unread,
      markNotificationsRead,
      dismissNotification,
    }),
    [open, view, openPanel, closePanel, togglePanel, showList, openNew, openEdit, openAudit, isAdmin, scope, setScope, tasks, status, error, cursor, more, reload, loadMore, upsert, notifications, unread, markNotificationsRead, dismissNotification],
  );
  const actions = useMemo<TaskActions>(() => ({ openNew, openEdit, openPanel }), [openNew, openEdit, openPanel]);
  return (
    <TaskActionsContext.Provider value={actions}>
      <TasksContext.Provider value={value}>{children}</TasksContext.Provider>
    </TaskActionsContext.Provider>
  );
}
