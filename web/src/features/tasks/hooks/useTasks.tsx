/**
 * Task state of the current organization, shared by the top-bar button, the task panel and the
 * places that create tasks (chat header, message menu, ticket detail):
 * - the panel: open or closed, and its view (list, edit, new with a prefill, audit log);
 * - the loaded tasks (useTaskList.ts: an infinite query over GET /tasks?scope=mine|all, fetched on
 *   the first open and kept live by the realtime bridge from task.* events);
 * - reminder notifications: task.reminder_due for a task assigned to me shows a toast and a
 *   notification entry (unread count on the tasks button).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AssociatedObjectMetadata, Task } from '#shared/task/task.schemas.ts';
import type { TaskScope } from '../api/task-cache.ts';
import { useTaskList } from './useTaskList.ts';
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

export type { TaskScope } from '../api/task-cache.ts';

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
  const [notifications, setNotifications] = useState<TaskNotification[]>([]);
  const newSeq = useRef(0);
  const notifiedKeys = useRef(new Set<string>());
  const list = useTaskList(org.org_id, scope, me, open);

  const setScope = useCallback((s: TaskScope) => setScopeState(isAdmin ? s : 'mine'), [isAdmin]);

  // reminders due for me: a toast and an entry on the tasks button (the list itself is kept by the realtime bridge)
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind !== 'task' || e.type !== 'task.reminder_due' || (e.task.assignee ?? '').toLowerCase() !== me) return;
        const key = `${e.task.task_id}:${e.remindAt ?? e.task.remind_at ?? Date.now()}`;
        if (notifiedKeys.current.has(key)) return;
        notifiedKeys.current.add(key);
        const entry: TaskNotification = { key, taskId: e.task.task_id, title: e.task.title, remindAt: e.remindAt ?? e.task.remind_at, receivedAt: Date.now(), read: false };
        setNotifications((prev) => [entry, ...prev].slice(0, 50));
        toast.show(`Reminder: ${e.task.title}`, 'info');
      }),
    [subscribe, me, toast],
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
      ...list,
      notifications,
      unread,
      markNotificationsRead,
      dismissNotification,
    }),
    [open, view, openPanel, closePanel, togglePanel, showList, openNew, openEdit, openAudit, isAdmin, scope, setScope, list, notifications, unread, markNotificationsRead, dismissNotification],
  );
  const actions = useMemo<TaskActions>(() => ({ openNew, openEdit, openPanel }), [openNew, openEdit, openPanel]);
  return (
    <TaskActionsContext.Provider value={actions}>
      <TasksContext.Provider value={value}>{children}</TasksContext.Provider>
    </TaskActionsContext.Provider>
  );
}
