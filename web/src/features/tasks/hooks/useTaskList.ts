/**
 * The task panel's list for one scope: an infinite query over GET /tasks (TASK_FETCH_LIMIT first,
 * TASK_LOAD_MORE per 'Load more tasks', with the API's cursor; spec §7, §9), enabled from the
 * panel's first open; the realtime bridge merges task.* events into it (task-cache.ts) and a
 * reconnect refetches it. Replaces the hand-kept list and its generation counter: a response for
 * the other scope lands in that scope's cache entry, never in the list shown.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { Task } from '#shared/task/task.schemas.ts';
import { TASK_FETCH_LIMIT, TASK_LOAD_MORE } from '#shared/task/task.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { inScope, loadedTasks, taskKeys, upsertTaskPages, type TaskData, type TaskPage, type TaskScope } from '../api/task-cache.ts';

export interface TaskListState {
  tasks: Task[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  cursor: string | null;
  more: 'idle' | 'loading' | 'error';
  reload: () => void;
  loadMore: () => void;
  /** a task changed here (created, saved, bulk, rollback): put it in the list as is */
  upsert: (t: Task) => void;
}

/** @param me the viewer's email, lower case; @param open the panel is open (the first open enables the query) */
export function useTaskList(orgId: string, scope: TaskScope, me: string, open: boolean): TaskListState {
  const qc = useQueryClient();
  const [enabled, setEnabled] = useState(open);
  useEffect(() => {
    if (open) setEnabled(true);
  }, [open]);
  const queryKey = useMemo(() => taskKeys.list(orgId, scope), [orgId, scope]);
  const q = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }): Promise<TaskPage> => api.listTasks(orgId, scope, pageParam, pageParam ? TASK_LOAD_MORE : TASK_FETCH_LIMIT),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.cursor ?? undefined,
    enabled,
    // a scope shown again is fetched again (its cached rows meanwhile)
    staleTime: 0,
  });

  const pages = q.data?.pages;
  const tasks = useMemo(() => loadedTasks(pages ? { pages } : undefined), [pages]);
  const cursor = pages?.length ? pages[pages.length - 1]!.cursor : null;
  const { fetchNextPage } = q;
  const busyMore = q.isFetchingNextPage;
  const reload = useCallback(() => void qc.resetQueries({ queryKey }), [qc, queryKey]);
  const loadMore = useCallback(() => {
    if (cursor && !busyMore) void fetchNextPage();
  }, [cursor, busyMore, fetchNextPage]);
  const upsert = useCallback((t: Task) => qc.setQueryData<TaskData>(queryKey, (d) => upsertTaskPages(d, t, inScope(t, scope, me))), [qc, queryKey, scope, me]);

  const status: TaskListState['status'] = !enabled ? 'idle' : q.data ? 'ready' : q.isError && !q.isFetching ? 'error' : 'loading';
  const error = status === 'error' ? errorMessage(q.error) : null;
  const more: TaskListState['more'] = busyMore ? 'loading' : q.isFetchNextPageError ? 'error' : 'idle';
  return useMemo(() => ({ tasks, status, error, cursor, more, reload, loadMore, upsert }), [tasks, status, error, cursor, more, reload, loadMore, upsert]);
}
