import { z } from 'zod';
import { Action } from '../rules/rule.schemas.ts';

/**
 * SLA policies (issue 17 §6): targets for the first response, the next response and the
 * resolution of a conversation, per label and/or per number, counted in the org's business hours
 * (getOrgClock: time zone + weekly hours) or in calendar time; actions when a target is near its
 * breach and when it is breached — the rule actions, limited to the ones the issue names:
 * reassign (`assign`), notify, label (`add_label`), create a ticket (plus a private note).
 * Minutes are whole minutes; times epoch **ms**.
 */

export const SLA_TARGETS = ['first_response', 'next_response', 'resolution'] as const;
export type SlaTarget = (typeof SLA_TARGETS)[number];

/** Actions an SLA may take (issue 17 §6: reassign, notify, label, or create a ticket). */
export const SLA_ACTION_TYPES = ['assign', 'notify', 'add_label', 'create_ticket', 'private_note'] as const;

const SlaAction = Action.superRefine((a, ctx) => {
  if (!(SLA_ACTION_TYPES as readonly string[]).includes(a.type)) ctx.addIssue({ code: 'custom', path: ['type'], message: `must be one of ${SLA_ACTION_TYPES.join(', ')}` });
  if ('delay_minutes' in a && a.delay_minutes) ctx.addIssue({ code: 'custom', path: ['delay_minutes'], message: 'is not allowed on SLA actions' });
});

const Minutes = z.number({ invalid_type_error: 'must be a number of minutes' }).int('must be whole minutes').min(1, 'must be at least 1 minute').max(60 * 24 * 90, 'must be at most 90 days');

export const SlaPolicyInput = z
  .object({
    name: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    enabled: z.boolean().default(true),
    /** which chats: any of these labels (ids) and/or any of these numbers (phone ids); empty lists = every chat */
    scope: z
      .object({ label_ids: z.array(z.string().min(1).max(100)).max(20).default([]), phone_ids: z.array(z.string().min(1).max(100)).max(20).default([]) })
      .strict()
      .default({ label_ids: [], phone_ids: [] }),
    targets: z
      .object({ first_response_minutes: Minutes.optional(), next_response_minutes: Minutes.optional(), resolution_minutes: Minutes.optional() })
      .strict()
      .refine((t) => t.first_response_minutes || t.next_response_minutes || t.resolution_minutes, { message: 'needs at least one target' }),
    /** count only the org's business hours (default) or calendar time */
    business_hours: z.boolean().default(true),
    /** near breach at this share of a target's time (percent); null: no near-breach step */
    near_breach_percent: z.number().int().min(10, 'must be 10 to 99').max(99, 'must be 10 to 99').nullable().default(80),
    near_breach_actions: z.array(SlaAction).max(5, 'at most 5 actions').default([]),
    breach_actions: z.array(SlaAction).max(5, 'at most 5 actions').default([]),
  })
  .strict();
export type SlaPolicyInput = z.infer<typeof SlaPolicyInput>;
export const UpdateSlaPolicyInput = SlaPolicyInput.partial().strict();
export type UpdateSlaPolicyInput = z.infer<typeof UpdateSlaPolicyInput>;

/** A policy as the API shows it. */
export interface SlaPolicy extends SlaPolicyInput {
  policy_id: string;
  created_by: string;
  created_at: number;
  updated_by: string;
  updated_at: number;
  /** whose rights the policy acts with (issue 42 §1): who last saved it, other than switching it off */
  owner: string;
  /** why the policy was switched off for its owner (issue 42 §1: the owner lost the rights it acts with); null: not paused */
  paused_reason: string | null;
  /** epoch ms it was paused; null: not paused */
  paused_at: number | null;
}

export const SlaPolicyParams = z.object({ org_id: z.string().min(1), policy_id: z.string().min(1).max(100) });

/** GET /logs/sla: the breach report, newest first. */
export const ListSlaBreachesQuery = z
  .object({
    policy_id: z.string().min(1).max(100).optional(),
    target: z.enum(SLA_TARGETS, { errorMap: () => ({ message: `must be one of ${SLA_TARGETS.join(', ')}` }) }).optional(),
    limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int().min(1, 'must be 1 to 200').max(200, 'must be 1 to 200').default(50),
    cursor: z.string().max(2000).optional(),
  })
  .strict();
export type ListSlaBreachesQuery = z.infer<typeof ListSlaBreachesQuery>;

/** One breach (the report). */
export interface SlaBreach {
  breach_id: string;
  policy_id: string;
  policy_name: string;
  target: SlaTarget;
  chat_id: string;
  chat_name: string | null;
  /** epoch ms the target's clock started (the customer message) */
  started_at: number;
  /** epoch ms it was due */
  due_at: number;
  /** epoch ms the breach was recorded */
  breached_at: number;
  assignee: string | null;
  phone_id: string | null;
  label_ids: string[];
}
