import { z } from 'zod';

/**
 * Contracts of the task events. The snapshot is the API's Task wire shape
 * (shared/task/task.schemas.ts); only the fields consumers rely on are required here.
 * Realtime fan-out sends task events only to admins, the assignee and the creator.
 */
export const TaskSnapshot = z
  .object({
    org_id: z.string(),
    task_id: z.string(),
    title: z.string(),
    status: z.enum(['open', 'inprogress', 'closed']),
    assignee: z.string().nullable(),
    created_by: z.string(),
    remind_at: z.number().nullable(),
  })
  .passthrough();

/** task.created v1 */
export const TaskCreatedV1 = z.object({ org_id: z.string(), task: TaskSnapshot, actions: z.array(z.string()) });
/** task.updated v1: `actions` are the audit actions of the change (TITLE_CHANGED, ...). */
export const TaskUpdatedV1 = z.object({ org_id: z.string(), task: TaskSnapshot, actions: z.array(z.string()) });
/** task.reminder_due v1: a reminder came due (remind_at, epoch ms); the assignee is notified in-app. */
export const TaskReminderDueV1 = z.object({ org_id: z.string(), task: TaskSnapshot, remind_at: z.number() });
