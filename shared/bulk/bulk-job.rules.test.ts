import { describe, expect, it } from 'vitest';
import { jobSummary, undoProblem } from './bulk-job.rules.ts';
import type { BulkJob } from './bulk-job.schemas.ts';

const job = (over: Partial<BulkJob> = {}): BulkJob => ({
  org_id: 'o',
  job_id: 'job_1',
  action: 'label',
  params: { label_ids: ['lbl_a'] },
  selection: { kind: 'chat_ids', count: 480 },
  status: 'done',
  total: 480,
  processed: 480,
  succeeded: 477,
  failed_count: 3,
  failures: [],
  created_by: 'ann@x.com',
  created_at: 1,
  ...over,
});

describe('bulk job summary', () => {
  it('says what happened in words', () => {
    expect(jobSummary(job())).toBe('Labelled 477 chats, 3 failed');
    expect(jobSummary(job({ action: 'assign', succeeded: 1, failed_count: 0 }))).toBe('Assigned 1 chat');
    expect(jobSummary(job({ status: 'running', processed: 200 }))).toBe('Labelling… 200 of 480 chats');
    expect(jobSummary(job({ status: 'queued', processed: 0 }))).toBe('Starting…');
    expect(jobSummary(job({ undo_of: 'job_0', succeeded: 1200, failed_count: 0 }))).toBe('Undid labelling of 1,200 chats');
    expect(jobSummary(job({ status: 'failed', processed: 200, error: 'Ann is no longer a member of this workspace.' }))).toBe('Stopped after 200 chats, 3 failed: Ann is no longer a member of this workspace.');
  });
});

describe('undo', () => {
  const ann = { email: 'Ann@x.com', role: 'member' as const };
  it('is for finished assign, label and unlabel jobs, once, by their creator or an admin', () => {
    expect(undoProblem(job(), ann)).toBeNull();
    expect(undoProblem(job(), { email: 'boss@x.com', role: 'admin' })).toBeNull();
    expect(undoProblem(job(), { email: 'bob@x.com', role: 'member' })?.status).toBe(403);
    expect(undoProblem(job({ action: 'close' }), ann)?.code).toBe('bulk_job.not_undoable');
    expect(undoProblem(job({ undo_of: 'job_0' }), ann)?.code).toBe('bulk_job.not_undoable');
    expect(undoProblem(job({ undone_by_job: 'job_2' }), ann)?.code).toBe('bulk_job.already_undone');
    expect(undoProblem(job({ status: 'running' }), ann)?.code).toBe('bulk_job.not_finished');
  });
});
