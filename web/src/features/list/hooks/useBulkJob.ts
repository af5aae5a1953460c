/**
 * /list's bulk job: starting one for the selection (or for every chat matching the filter),
 * its progress from `bulk_job.updated` over the socket (snapshots seen before the POST answered
 * are kept), or GET every POLL_MS (2 s) while the socket is down, and Undo. `onFinished` runs once
 * per finished job (the list and the counts reload). Failures toast the API's message.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BulkAction, BulkJob, CreateBulkJobRequest } from '#shared/bulk/bulk-job.schemas.ts';
import { isFinished } from '#shared/bulk/bulk-job.rules.ts';
import { errorMessage } from '../../../lib/api.ts';
import { useInbox } from '../../../app/inbox.tsx';
import { useToast } from '../../../app/toast.tsx';
import { listApi } from '../api/listApi.ts';

const POLL_MS = 2000;

/** The later of two snapshots of one job (events and polls may arrive out of order). */
function newer(a: BulkJob | undefined, b: BulkJob): BulkJob {
  if (!a || a.job_id !== b.job_id) return b;
  if (isFinished(a) !== isFinished(b)) return isFinished(b) ? b : a;
  return b.processed >= a.processed ? { ...b, undone_by_job: b.undone_by_job ?? a.undone_by_job } : a;
}

export function useBulkJob(orgId: string, onFinished: () => void) {
  const { subscribe, socketState } = useInbox();
  const toast = useToast();
  const [job, setJob] = useState<BulkJob | null>(null);
  const [starting, setStarting] = useState(false);
  const [undoing, setUndoing] = useState(false);
  // job snapshots seen over the socket, also before the POST that started the job has answered
  const seenJobs = useRef(new Map<string, BulkJob>());
  useEffect(
    () =>
      subscribe((e) => {
        if (e.kind !== 'bulk_job') return;
        seenJobs.current.set(e.job.job_id, newer(seenJobs.current.get(e.job.job_id), e.job));
        setJob((cur) => (cur && cur.job_id === e.job.job_id ? newer(cur, e.job) : cur));
      }),
    [subscribe],
  );

  // polling fallback: only while the job runs and the socket is down
  const running = !!job && !isFinished(job);
  const socketDown = socketState !== 'open';
  const jobId = job?.job_id;
  useEffect(() => {
    if (!running || !socketDown || !jobId) return;
    const t = setInterval(() => {
      listApi.job(orgId, jobId).then(
        (j) => setJob((cur) => (cur && cur.job_id === j.job_id ? newer(cur, j) : cur)),
        (e) => console.warn('bulk job poll', errorMessage(e)),
      );
    }, POLL_MS);
    return () => clearInterval(t);
  }, [running, socketDown, jobId, orgId]);

  const finishedId = job && isFinished(job) ? job.job_id : null;
  const finished = useRef(onFinished);
  finished.current = onFinished;
  useEffect(() => {
    if (finishedId) finished.current();
  }, [finishedId]);

  /** @returns whether the job started */
  const start = useCallback(
    async (action: BulkAction, params: CreateBulkJobRequest['params'], target: Pick<CreateBulkJobRequest, 'chat_ids' | 'filter'>): Promise<boolean> => {
      setStarting(true);
      try {
        const started = await listApi.startJob(orgId, { action, params, ...target } as CreateBulkJobRequest);
        setJob(newer(started, seenJobs.current.get(started.job_id) ?? started));
        return true;
      } catch (e) {
        toast.show(errorMessage(e), 'error');
        return false;
      } finally {
        setStarting(false);
      }
    },
    [orgId, toast],
  );

  const undo = useCallback(async () => {
    if (!job || undoing) return;
    setUndoing(true);
    try {
      const u = await listApi.undo(orgId, job.job_id);
      setJob(newer(u, seenJobs.current.get(u.job_id) ?? u));
    } catch (e) {
      toast.show(errorMessage(e), 'error');
    } finally {
      setUndoing(false);
    }
  }, [orgId, job, undoing, toast]);

  const dismiss = useCallback(() => setJob(null), []);
  return { job, running, starting, undoing, start, undo, dismiss };
}
