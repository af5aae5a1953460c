/**
 * The task panel's list as a TanStack infinite query: pages of GET /tasks?scope=mine|all (the
 * first TASK_FETCH_LIMIT, then TASK_LOAD_MORE at a time, with the API's cursor; spec §7, §9), one
 * cache entry per org and scope (`taskKeys.list`). Live tasks (task.* events, our own writes)
 * replace their loaded copy, or join the last page; a task that left the scope (reassigned away
 * from me in 'mine') leaves it. Pure functions, applied with setQueryData.
 */
import type { InfiniteData } from '@tanstack/react-query';
import type { Task } from '#shared/task/task.schemas.ts';
import { removeTask, upsertTasks } from './tasks.ts';

export type TaskScope = 'mine' | 'all';

/** Query keys of the tasks feature. */
export const taskKeys = {
  lists: (orgId: string) => ['orgs', orgId, 'tasks', 'list'] as const,
  list: (orgId: string, scope: TaskScope) => [...taskKeys.lists(orgId), scope] as const,
};

export interface TaskPage {
  items: Task[];
  cursor: string | null;
}
export type TaskData = InfiniteData<TaskPage, string | null>;

/** Is the task in the list of `scope` for viewer `me` (lower-case email)? */
export const inScope = (t: Task, scope: TaskScope, me: string): boolean => scope === 'all' || (t.assignee ?? '').toLowerCase() === me;

/** Every loaded task, in page order, without duplicates. */
export const loadedTasks = (data: { pages: TaskPage[] } | undefined): Task[] => upsertTasks([], (data?.pages ?? []).flatMap((p) => p.items));

/** A live task into a scope's pages: replaced where loaded, else appended; removed when out of scope. */
export function upsertTaskPages(data: TaskData | undefined, t: Task, visible: boolean): TaskData | undefined {
  if (!data || data.pages.length === 0) return data;
  if (!visible) {
    const pages = data.pages.map((p) => {
      const items = removeTask(p.items, t.task_id);
      return items === p.items ? p : { ...p, items };
    });
    return pages.every((p, i) => p === data.pages[i]) ? data : { ...data, pages };
  }
  let i = data.pages.findIndex((p) => p.items.some((x) => x.task_id === t.task_id));
  if (i < 0) i = data.pages.length - 1;
  const pages = data.pages.slice();
  pages[i] = { ...pages[i]!, items: upsertTasks(pages[i]!.items, [t]) };
  return { ...data, pages };
}
