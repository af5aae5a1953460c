import { z } from 'zod';

/**
 * Automation rules (issue 17): `{ name, trigger, conditions, actions, enabled }`.
 *
 * - trigger: what starts an evaluation (TRIGGERS; derived from bus events by triggers.rules.ts).
 * - conditions: a root group `{ match: 'all' | 'any', items }` whose items are conditions or groups
 *   of conditions (nesting two levels deep, issue 17 §2). An empty root matches every event.
 * - actions: run in order; each may be delayed (`delay_minutes`, through the scheduler port) and
 *   is cancelled when moot (a customer reply cancels a delayed action of that chat when
 *   `cancel_on_reply`, the default for delayed actions).
 * Times are epoch **ms** unless a name says otherwise.
 */

export const TRIGGERS = [
  'message.received',
  'message.sent',
  'chat.created',
  'chat.reopened',
  'chat.assigned',
  'chat.closed',
  'label.added',
  'label.removed',
  'message.flagged',
  'ticket.created',
  'ticket.updated',
  'ticket.closed',
  'task.created',
  'task.due',
  'no_reply',
  // issue 17 §1: contact created, and a contact's custom property changed (contact.created / contact.updated events)
  'contact.created',
  'contact.property_changed',
  // issue 17 §1: a customer reacted to a message (message.reaction events); condition field reaction.emoji
  'reaction.added',
] as const;
export type TriggerType = (typeof TRIGGERS)[number];

/** Triggers named by the issue that no event carries yet: none since message.reaction (kept for the API's docs). */
export const TRIGGERS_NOT_YET = [] as const;

export const OPERATORS = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'ends_with', 'lt', 'lte', 'gt', 'gte', 'is_known', 'is_unknown', 'in', 'not_in', 'on'] as const;
export type Operator = (typeof OPERATORS)[number];

/**
 * Condition fields (issue 17 §2). `chat.custom_properties.<key>` and `contact.properties.<key>`
 * name one property. Labels are compared by label id (the editor's picker) or name.
 */
export const FIELDS = [
  'message.body',
  'message.type',
  'message.from_me',
  'message.number',
  'chat.labels',
  'chat.assignee',
  'chat.type',
  'chat.unread',
  'chat.closed',
  'chat.phone',
  'contact.name',
  'contact.labels',
  'ticket.status',
  'ticket.priority',
  'ticket.subject',
  'ticket.assignee',
  'time.business_hours',
  'time.weekday',
  'time.date',
  'time.hour',
  // the reaction of a 'reaction.added' trigger (the emoji; empty for other triggers)
  'reaction.emoji',
] as const;
export type Field = (typeof FIELDS)[number];
const PROPERTY_FIELD = /^(chat\.custom_properties|contact\.properties)\.[A-Za-z0-9_.-]{1,64}$/;

const FieldSchema = z.string().refine((f) => (FIELDS as readonly string[]).includes(f) || PROPERTY_FIELD.test(f), { message: 'is not a known field' });
const Scalar = z.union([z.string().max(1000), z.number(), z.boolean()]);

export const Condition = z
  .object({
    field: FieldSchema,
    op: z.enum(OPERATORS, { errorMap: () => ({ message: `must be one of ${OPERATORS.join(', ')}` }) }),
    value: z.union([Scalar, z.array(Scalar).max(100)]).nullish(),
  })
  .strict();
export type Condition = z.infer<typeof Condition>;

export const ConditionGroup = z.object({ match: z.enum(['all', 'any']), items: z.array(Condition).max(20) }).strict();
export type ConditionGroup = z.infer<typeof ConditionGroup>;

/** The root group: conditions or groups of conditions (two levels). */
export const Conditions = z
  .object({ match: z.enum(['all', 'any'], { errorMap: () => ({ message: 'must be all or any' }) }), items: z.array(z.union([Condition, ConditionGroup])).max(20) })
  .strict();
export type Conditions = z.infer<typeof Conditions>;

const Delay = {
  /** wait this long before acting (through the scheduler port) */
  delay_minutes: z.number().int().min(0).max(60 * 24 * 30).optional(),
  /** a delayed action is dropped when the customer writes in the meantime (default true) */
  cancel_on_reply: z.boolean().optional(),
  /** count only the org's business hours (its time zone and weekly hours) in `delay_minutes`, like 'no reply' timers */
  business_hours: z.boolean().optional(),
};
const Text = z.string().trim().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters');
const Email = z.string().trim().toLowerCase().email('must be an email');

export const Action = z.discriminatedUnion('type', [
  z.object({ type: z.literal('send_message'), body: Text, ...Delay }).strict(),
  /**
   * issue 16/17: a WhatsApp template (Cloud API numbers; the way to write outside the 24-hour window):
   * name + language of a template synced for the chat's number; `values` by variable key
   * (`body.1`, `header.1`, `button.0.1`, …), each rendered with the rule variables first
   */
  z.object({ type: z.literal('send_template'), name: z.string().trim().min(1, 'must not be empty').max(512), language: z.string().trim().min(2, 'must be a language code').max(15), values: z.record(z.string().max(100), z.string().max(1024)).optional(), ...Delay }).strict(),
  z.object({ type: z.literal('assign'), mode: z.enum(['member', 'round_robin', 'least_busy']), member: Email.optional(), ...Delay }).strict(),
  z.object({ type: z.literal('unassign'), ...Delay }).strict(),
  z.object({ type: z.literal('add_label'), label_id: z.string().min(1).max(100), ...Delay }).strict(),
  z.object({ type: z.literal('remove_label'), label_id: z.string().min(1).max(100), ...Delay }).strict(),
  z.object({ type: z.literal('close'), ...Delay }).strict(),
  z.object({ type: z.literal('reopen'), ...Delay }).strict(),
  z.object({ type: z.literal('snooze'), minutes: z.number().int().min(1).max(60 * 24 * 365), ...Delay }).strict(),
  z.object({ type: z.literal('private_note'), body: Text, ...Delay }).strict(),
  z.object({ type: z.literal('create_ticket'), subject: z.string().trim().min(1).max(200), /** the ticket priority (1 low, 2 medium, 3 high) */
    priority: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(), ...Delay }).strict(),
  z.object({ type: z.literal('create_task'), title: z.string().trim().min(1).max(200), assignee: Email.optional(), due_in_minutes: z.number().int().min(1).max(60 * 24 * 365).optional(), ...Delay }).strict(),
  z.object({ type: z.literal('notify'), member: Email, text: z.string().trim().min(1).max(500), ...Delay }).strict(),
  z.object({ type: z.literal('webhook'), url: z.string().url('must be a URL').max(2000), ...Delay }).strict(),
  /** set (or clear with '') a custom property of the chat (issue 15's definitions, shared/property); the value may use variables */
  z.object({ type: z.literal('set_property'), property_id: z.string().min(1).max(100), value: z.string().max(1000), ...Delay }).strict(),
  /** flag the message the trigger is about (spec §7 flag: the chat then needs a reply on that number) */
  z.object({ type: z.literal('flag_message'), ...Delay }).strict(),
  z
    .object({
      type: z.literal('follow_up'),
      /** wait after our last message before each follow-up */
      after_minutes: z.number().int().min(1).max(60 * 24 * 30),
      body: Text,
      /** follow-ups sent at most (1..5) */
      repeat: z.number().int().min(1).max(5).default(1),
      /** what to do after the last follow-up went unanswered */
      then: z.enum(['nothing', 'close', 'label']).default('nothing'),
      then_label_id: z.string().min(1).max(100).optional(),
      /** count only the org's business hours (its time zone and weekly hours) in `after_minutes` */
      business_hours: z.boolean().optional(),
    })
    .strict(),
]);
export type Action = z.infer<typeof Action>;
export type ActionType = Action['type'];

export const Trigger = z
  .object({
    type: z.enum(TRIGGERS, { errorMap: () => ({ message: `must be one of ${TRIGGERS.join(', ')}` }) }),
    /** 'no_reply': minutes without a team reply after a customer message */
    minutes: z.number().int().min(1).max(60 * 24 * 30).optional(),
    /** 'no_reply': count only the org's business hours (getOrgClock: time zone + weekly hours) */
    business_hours: z.boolean().optional(),
    /** 'contact.property_changed': only this custom property (property_id); any when absent */
    property_id: z.string().min(1).max(100).optional(),
  })
  .strict()
  .refine((t) => t.type !== 'no_reply' || t.minutes !== undefined, { message: 'minutes is required for no_reply', path: ['minutes'] });
export type Trigger = z.infer<typeof Trigger>;

export const RuleInput = z
  .object({
    name: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    trigger: Trigger,
    conditions: Conditions.default({ match: 'all', items: [] }),
    actions: z.array(Action).min(1, 'needs at least one action').max(10, 'at most 10 actions'),
    enabled: z.boolean().default(true),
    /**
     * issue 42 §4 loop guard: may this rule send a message in answer to a message another rule sent
     * automatically in the same chat? Default false: a chain of automatic messages stops at the first
     * one an automatic message would cause.
     */
    allow_after_automation: z.boolean().optional(),
  })
  .strict();
export type RuleInput = z.infer<typeof RuleInput>;
export const UpdateRuleInput = RuleInput.partial().strict();
export type UpdateRuleInput = z.infer<typeof UpdateRuleInput>;

/** A rule as the API shows it. */
export interface Rule {
  rule_id: string;
  name: string;
  trigger: Trigger;
  conditions: Conditions;
  actions: Action[];
  enabled: boolean;
  /** 1, 2, … one per saved change (version history) */
  version: number;
  created_by: string;
  created_at: number;
  updated_by: string;
  updated_at: number;
  /** issue 42 §1: whose rights the rule acts with (who last defined what it does) */
  owner: string;
  /** issue 42 §4: may answer another rule's automatic message with a message (default false) */
  allow_after_automation: boolean;
  /** issue 42 §1: why the rule was paused (its owner was removed, demoted or lost access); null when not paused */
  paused_reason: string | null;
  /** epoch ms of the pause; null when not paused */
  paused_at: number | null;
}

export const RuleParams = z.object({ org_id: z.string().min(1), rule_id: z.string().min(1).max(100) });
export const OrgParams = z.object({ org_id: z.string().min(1) });

export const RULE_OUTCOMES = ['matched', 'not_matched', 'skipped', 'failed', 'partial'] as const;
export type RuleOutcome = (typeof RULE_OUTCOMES)[number];

export const ListRuleLogsQuery = z
  .object({
    rule_id: z.string().min(1).max(100).optional(),
    chat_id: z.string().min(1).max(200).optional(),
    outcome: z.enum(RULE_OUTCOMES).optional(),
    limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int().min(1).max(200).default(50),
    cursor: z.string().max(2000).optional(),
  })
  .strict();
export type ListRuleLogsQuery = z.infer<typeof ListRuleLogsQuery>;

/** One action's outcome in a log row. `ms`: its duration. */
export interface ActionOutcome {
  index: number;
  type: ActionType;
  status: 'done' | 'scheduled' | 'skipped' | 'failed' | 'duplicate' | 'cancelled' | 'would_run';
  detail?: string;
  ms?: number;
}

/** One evaluation (the Rules log, issue 17 §7). TTL 90 days. */
export interface RuleLog {
  log_id: string;
  rule_id: string;
  rule_name: string;
  rule_version: number;
  trigger: TriggerType;
  event_id: string;
  chat_id: string | null;
  outcome: RuleOutcome;
  /** why it did not match (the failed conditions), or why it was skipped */
  reasons: string[];
  actions: ActionOutcome[];
  /** epoch ms */
  at: number;
  /** stored → evaluated, ms (event occurred_at to the end of the evaluation) */
  latency_ms: number | null;
}
