import { z } from 'zod';
import { TemplateRef } from '../template/template.schemas.ts';
import { MessageBody, PageCursor } from '../message/message.schemas.ts';
import { Recurrence } from './recurrence.rules.ts';

/** Wire shape of a scheduled message (issue 16 item 6). Epoch ms. */
export interface ScheduledMessageView {
  schedule_id: string;
  chat_id: string;
  chat_name: string | null;
  created_by: string;
  body: string | null;
  template: TemplateRef | null;
  recurrence: Recurrence;
  /** "Every Mon, Wed at 09:00, 5 times" */
  summary: string;
  status: 'active' | 'paused' | 'done';
  next_at: number | null;
  occurrences: number;
  last_run: { at: number; outcome: 'sent' | 'failed' | 'skipped'; reason?: string | null; unique_id?: string | null } | null;
  /** the org's time zone the times are in */
  time_zone: string;
  created_at: number;
  updated_at: number;
}

const content = <T extends z.ZodRawShape>(shape: T) => z.object({ body: MessageBody.optional(), template: TemplateRef.nullish(), ...shape });

/**
 * POST /api/orgs/{org_id}/scheduled: `{ chat_id, body?, template?, recurrence }`; a body, a template
 * or both (the template is used when the 24-hour window is closed at send time).
 */
export const CreateScheduledInput = content({
  chat_id: z.string({ required_error: 'is required' }).min(1, 'is required').max(200, 'is too long'),
  recurrence: Recurrence,
})
  .strict()
  .superRefine((v, ctx) => {
    if (v.body === undefined && !v.template) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['body'], message: 'is required (or a template)' });
  });
export type CreateScheduledInput = z.infer<typeof CreateScheduledInput>;

/** PATCH /api/orgs/{org_id}/scheduled/{schedule_id}: any of body, template (null removes it), recurrence, status (pause / resume). */
export const UpdateScheduledInput = content({ recurrence: Recurrence.optional(), status: z.enum(['active', 'paused']).optional() })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'nothing to change', path: ['body'] });
export type UpdateScheduledInput = z.infer<typeof UpdateScheduledInput>;

export const ListScheduledQuery = z.object({
  cursor: PageCursor.optional(),
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').optional(),
  /** admins: 'all' (default) or 'mine'; members always see their own */
  scope: z.enum(['all', 'mine']).optional(),
});
export type ListScheduledQuery = z.infer<typeof ListScheduledQuery>;

/** The wake-up body on the scheduled-messages queue. */
export const ScheduledWakeup = z.object({ org_id: z.string(), schedule_id: z.string(), at: z.number() });
export type ScheduledWakeup = z.infer<typeof ScheduledWakeup>;
