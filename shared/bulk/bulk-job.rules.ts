import { UNDOABLE_ACTIONS, type BulkAction, type BulkJob } from './bulk-job.schemas.ts';

/**
 * Pure rules of bulk jobs, shared by the API (undo checks) and the web app (summary words, the
 * Undo button).
 */

/** Past-tense verb of an action, as the summary says it ('Labelled 480 chats'). */
export const ACTION_DONE: Record<BulkAction, string> = {
  assign: 'Assigned',
  label: 'Labelled',
  unlabel: 'Unlabelled',
  close: 'Closed',
  reopen: 'Reopened',
  archive: 'Archived',
  unarchive: 'Unarchived',
  mute: 'Muted',
  unmute: 'Unmuted',
  set_property: 'Set the property on',
  clear_property: 'Cleared the property on',
};

/** Present participle of an action ('Labelling… 120 of 480 chats', 'Undid labelling of …'). */
export const ACTION_DOING: Record<BulkAction, string> = {
  assign: 'Assigning',
  label: 'Labelling',
  unlabel: 'Unlabelling',
  close: 'Closing',
  reopen: 'Reopening',
  archive: 'Archiving',
  unarchive: 'Unarchiving',
  mute: 'Muting',
  unmute: 'Unmuting',
  set_property: 'Setting the property on',
  clear_property: 'Clearing the property on',
};

/** A job has finished (nothing more will change). */
export const isFinished = (job: Pick<BulkJob, 'status'>): boolean => job.status === 'done' || job.status === 'failed' || job.status === 'cancelled';

/**
 * Why this job cannot be undone by this viewer, or null when it can: only assign/label/unlabel
 * jobs, not an undo itself, once finished, not twice, by its creator or an admin.
 */
export function undoProblem(job: Pick<BulkJob, 'action' | 'status' | 'undo_of' | 'undone_by_job' | 'created_by'>, viewer: { email: string; role: 'admin' | 'member' }): { code: string; status: number; message: string } | null {
  if (job.created_by.toLowerCase() !== viewer.email.toLowerCase() && viewer.role !== 'admin') return { code: 'bulk_job.undo_forbidden', status: 403, message: 'Only the member who started this bulk action, or an admin, can undo it.' };
  if (!UNDOABLE_ACTIONS.includes(job.action) || job.undo_of) return { code: 'bulk_job.not_undoable', status: 409, message: 'Only assigning, labelling and unlabelling can be undone.' };
  if (job.undone_by_job) return { code: 'bulk_job.already_undone', status: 409, message: 'This bulk action has already been undone.' };
  if (!isFinished(job)) return { code: 'bulk_job.not_finished', status: 409, message: 'Wait for this bulk action to finish before undoing it.' };
  return null;
}

const chats = (n: number) => `${n.toLocaleString('en-US')} chat${n === 1 ? '' : 's'}`;

/**
 * One line for a job: 'Labelling… 120 of 480 chats', 'Labelled 480 chats, 3 failed',
 * 'Undid labelling of 480 chats'.
 */
export function jobSummary(job: Pick<BulkJob, 'action' | 'status' | 'total' | 'processed' | 'succeeded' | 'failed_count' | 'undo_of' | 'error'>): string {
  const verb = ACTION_DONE[job.action];
  const failed = job.failed_count ? `, ${job.failed_count.toLocaleString('en-US')} failed` : '';
  if (!isFinished(job)) {
    const doing = job.undo_of ? 'Undoing' : ACTION_DOING[job.action];
    return job.status === 'queued' ? 'Starting…' : `${doing}… ${job.processed.toLocaleString('en-US')} of ${chats(job.total)}`;
  }
  if (job.status === 'failed') return `Stopped after ${chats(job.processed)}${failed}${job.error ? `: ${job.error}` : ''}`;
  if (job.status === 'cancelled') return `Cancelled after ${chats(job.processed)}`;
  if (job.undo_of) return `Undid ${ACTION_DOING[job.action].toLowerCase()} of ${chats(job.succeeded)}${failed}`;
  return `${verb} ${chats(job.succeeded)}${failed}`;
}
