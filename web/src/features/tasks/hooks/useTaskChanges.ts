/**
 * Changes made from the task list: a row's status (a mutation: shown at once, rolled back with
 * the API's message as an error toast when it fails), 'Remind In' (toast 'Reminder set in …'),
 * and bulk status / assignee / priority / close (POST /tasks/bulk, at most MAX_BULK_TASKS;
 * per-task failures kept for the list to show, those tasks left checked).
 */
import { useCallback, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { Task, TaskPriority, TaskStatus } from '#shared/task/task.schemas.ts';
import { MAX_BULK_TASKS } from '#shared/task/task.schemas.ts';
import { api, errorMessage } from '../../../lib/api.ts';
import { useToast } from '../../../app/toast.tsx';
import { REMIND_IN_LABELS, editableOf, type RemindInKey } from '../api/tasks.ts';

export type BulkChange = { status?: TaskStatus; assignee?: string | null; priority?: TaskPriority };

/**
 * @param upsert puts a task into the list as is (useTaskList)
 * @param known whether a task id is loaded (failures of unknown ids are not left checked)
 * @param setChecked the list's selection
 */
export function useTaskChanges(orgId: string, upsert: (t: Task) => void, known: (id: string) => boolean, setChecked: (s: Set<string>) => void) {
  const toast = useToast();
  const [bulkBusy, setBulkBusy] = useState(false);
  const [failures, setFailures] = useState<Array<{ task_id: string; reason: string }>>([]);

  const { mutate: mutateStatus } = useMutation({
    mutationFn: ({ t, s }: { t: Task; s: TaskStatus }) => api.updateTask(orgId, t.task_id, { ...editableOf(t), status: s }),
    onMutate: ({ t, s }) => upsert({ ...t, status: s }),
    onSuccess: (stored) => upsert(stored),
    onError: (e, { t }) => {
      upsert(t);
      toast.show(errorMessage(e), 'error');
    },
  });
  const setStatus = useCallback(
    (t: Task, s: TaskStatus) => {
      if (t.status !== s) mutateStatus({ t, s });
    },
    [mutateStatus],
  );

  const remindIn = useCallback(
    async (t: Task, key: RemindInKey) => {
      try {
        upsert(await api.remindTaskIn(orgId, t.task_id, { remind_in: key }));
        toast.show(`Reminder set in ${REMIND_IN_LABELS[key]}`, 'success');
      } catch (e) {
        toast.show(errorMessage(e), 'error');
      }
    },
    [orgId, upsert, toast],
  );

  const bulk = useCallback(
    async (ids: string[], change: BulkChange) => {
      if (ids.length === 0) return;
      if (ids.length > MAX_BULK_TASKS) {
        toast.show(`At most ${MAX_BULK_TASKS} tasks at once.`, 'error');
        return;
      }
      setBulkBusy(true);
      setFailures([]);
      try {
        const r = await api.bulkUpdateTasks(orgId, { task_ids: ids, ...change });
        for (const t of r.updated) upsert(t);
        setFailures(r.failed);
        setChecked(new Set(r.failed.map((f) => f.task_id).filter(known)));
        if (r.failed.length === 0) toast.show(`${r.updated.length} task${r.updated.length === 1 ? '' : 's'} updated`, 'success');
        else toast.show(`${r.failed.length} of ${r.failed.length + r.updated.length} tasks could not be updated`, 'error');
      } catch (e) {
        toast.show(errorMessage(e), 'error');
      } finally {
        setBulkBusy(false);
      }
    },
    [orgId, upsert, toast, known, setChecked],
  );

  return { setStatus, remindIn, bulk, bulkBusy, failures, setFailures };
}
