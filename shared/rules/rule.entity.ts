import { Entity } from 'electrodb';

/**
 * Automation rules (issue 17). Access patterns (ACCESS_PATTERNS.md, issue 17 block):
 * - rules of an org (byOrg; an org has a handful: the plan allows 2 per licence);
 * - versions of a rule, newest first (byRule);
 * - evaluation log of an org / of a rule / of a chat, newest first (byOrg, gsi1, gsi2), TTL 90 days;
 * - action receipts by (event id, rule id, action index): idempotency (key get / conditional create);
 * - pending (delayed) actions of a chat (byChat): cancelled when moot (a customer reply);
 * - the per-chat rate window (key update with a counter).
 * Times epoch **ms**; `expires_at` epoch **s** (the table's TTL attribute).
 */
export const RuleEntity = new Entity({
  model: { entity: 'rule', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    rule_id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    trigger: { type: 'any', required: true },
    conditions: { type: 'any', required: true },
    actions: { type: 'any', required: true },
    enabled: { type: 'boolean', required: true },
    version: { type: 'number', required: true },
    /** Standard Webhooks secret (`whsec_…`) signing this rule's webhook calls */
    secret: { type: 'string' },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    updated_by: { type: 'string', required: true },
    updated_at: { type: 'number', required: true },
    /**
     * issue 42 §1: whose rights the rule acts with — who last defined what it does (created it,
     * changed its trigger, conditions or actions, or resumed it). Absent on older rows: `created_by`.
     */
    owner: { type: 'string' },
    /** the owner's role when they took ownership (a demotion since pauses the rule) */
    owner_role: { type: ['admin', 'member'] as const },
    /** issue 42 §4: the rule may send a message in answer to another rule's automatic message (loop guard); default false */
    allow_after_automation: { type: 'boolean' },
    /** issue 42 §1: why the rule was paused (its owner lost the rights it acts with); cleared when someone resumes it */
    paused_reason: { type: 'string' },
    /** epoch ms of the pause */
    paused_at: { type: 'number' },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['rule_id'] } },
  },
});

/** A saved version of a rule (the whole rule as it was; `deleted` marks the deletion). */
export const RuleVersionEntity = new Entity({
  model: { entity: 'rule_version', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    rule_id: { type: 'string', required: true },
    /** zero-padded for sorting */
    version_key: { type: 'string', required: true },
    version: { type: 'number', required: true },
    rule: { type: 'any', required: true },
    change: { type: ['created', 'updated', 'enabled', 'disabled', 'deleted', 'paused'] as const, required: true },
    by: { type: 'string', required: true },
    at: { type: 'number', required: true },
  },
  indexes: {
    byRule: { pk: { field: 'pk', composite: ['org_id', 'rule_id'] }, sk: { field: 'sk', composite: ['version_key'] } },
  },
});

/** One evaluation of one rule on one event (the Rules log). */
export const RuleLogEntity = new Entity({
  model: { entity: 'rule_log', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** ULID: time-sortable */
    log_id: { type: 'string', required: true },
    rule_id: { type: 'string', required: true },
    rule_name: { type: 'string', required: true },
    rule_version: { type: 'number', required: true },
    trigger: { type: 'string', required: true },
    event_id: { type: 'string', required: true },
    /** '-' when the event names no chat */
    chat_key: { type: 'string', required: true },
    outcome: { type: 'string', required: true },
    reasons: { type: 'list', items: { type: 'string' } },
    actions: { type: 'any' },
    at: { type: 'number', required: true },
    latency_ms: { type: 'number' },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['log_id'] } },
    byRule: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['org_id', 'rule_id'] }, sk: { field: 'gsi1sk', composite: ['log_id'] } },
    byChat: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['org_id', 'chat_key'] }, sk: { field: 'gsi2sk', composite: ['log_id'] } },
  },
});

/**
 * An action's receipt: created (condition: not there yet) before the action runs, so an event
 * redelivered, relayed twice or evaluated by two workers acts once (issue 17: idempotent by event
 * id + rule id + action index). `status` 'running' → 'done' | 'failed' | 'scheduled' | 'cancelled'.
 */
export const RuleActionEntity = new Entity({
  model: { entity: 'rule_action', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** `${event_id}|${rule_id}|${index}` (a follow-up step adds `|step`) */
    action_key: { type: 'string', required: true },
    rule_id: { type: 'string', required: true },
    chat_id: { type: 'string' },
    status: { type: 'string', required: true },
    detail: { type: 'string' },
    at: { type: 'number', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byKey: { pk: { field: 'pk', composite: ['org_id', 'action_key'] }, sk: { field: 'sk', composite: [] } },
  },
});

/** A delayed action waiting for its wake-up, listed per chat so a customer reply can cancel it. */
export const RulePendingEntity = new Entity({
  model: { entity: 'rule_pending', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    action_key: { type: 'string', required: true },
    rule_id: { type: 'string', required: true },
    rule_name: { type: 'string', required: true },
    /** what will happen, in words (shown in the thread) */
    summary: { type: 'string', required: true },
    /** the scheduler's schedule name */
    schedule: { type: 'string', required: true },
    /** the wake-up command body (JSON) */
    command: { type: 'string', required: true },
    due_at: { type: 'number', required: true },
    cancel_on_reply: { type: 'boolean', required: true },
    created_at: { type: 'number', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byChat: { pk: { field: 'pk', composite: ['org_id', 'chat_id'] }, sk: { field: 'sk', composite: ['action_key'] } },
  },
});

/** Rule actions per chat per minute window (the per-chat rate limit). */
export const RuleRateEntity = new Entity({
  model: { entity: 'rule_rate', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    /** epoch minute */
    window: { type: 'number', required: true },
    count: { type: 'number', required: true, default: 0 },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byWindow: { pk: { field: 'pk', composite: ['org_id', 'chat_id', 'window'] }, sk: { field: 'sk', composite: [] } },
  },
});

/**
 * A recent event as a rule would see it (its evaluation context), per trigger, newest first: what
 * a dry run evaluates a rule against (the last 100 matching events). TTL 14 days.
 */
export const RuleSampleEntity = new Entity({
  model: { entity: 'rule_sample', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    trigger: { type: 'string', required: true },
    /** ULID of the time it was seen */
    sample_id: { type: 'string', required: true },
    event_id: { type: 'string', required: true },
    chat_id: { type: 'string' },
    context: { type: 'any', required: true },
    at: { type: 'number', required: true },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byTrigger: { pk: { field: 'pk', composite: ['org_id', 'trigger'] }, sk: { field: 'sk', composite: ['sample_id'] } },
  },
});
