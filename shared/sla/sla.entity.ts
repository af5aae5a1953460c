import { Entity } from 'electrodb';

/**
 * SLA policies and the breach report (issue 17 §6). Access patterns:
 * - the policies of an org (byOrg; a handful per org);
 * - breaches of an org, newest first (byOrg; sort key = breach time + the clock's identity, so a
 *   breach recorded twice is one item), TTL 90 days like the other logs.
 * Times epoch **ms**; `expires_at` epoch **s** (the table's TTL attribute).
 */
export const SlaPolicyEntity = new Entity({
  model: { entity: 'sla_policy', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    policy_id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    enabled: { type: 'boolean', required: true },
    scope: { type: 'any', required: true },
    targets: { type: 'any', required: true },
    business_hours: { type: 'boolean', required: true },
    near_breach_percent: { type: 'number' },
    near_breach_actions: { type: 'any', required: true },
    breach_actions: { type: 'any', required: true },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', required: true },
    updated_by: { type: 'string', required: true },
    updated_at: { type: 'number', required: true },
    /** issue 42 §1: whose rights the policy acts with (who last saved it, other than switching it off); absent on older rows: `created_by` */
    owner: { type: 'string' },
    /** the owner's role when they took ownership */
    owner_role: { type: ['admin', 'member'] as const },
    /** issue 42 §1: why the policy was switched off for its owner (owner.rules.ts ownerProblem), and when (epoch ms); removed when it is turned on again */
    paused_reason: { type: 'string' },
    paused_at: { type: 'number' },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['policy_id'] } },
  },
});

export const SlaBreachEntity = new Entity({
  model: { entity: 'sla_breach', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** `${breached_at padded}|${chat_id}|${target}|${started_at}`: newest last in the key order, unique per clock */
    breach_id: { type: 'string', required: true },
    policy_id: { type: 'string', required: true },
    policy_name: { type: 'string', required: true },
    target: { type: 'string', required: true },
    chat_id: { type: 'string', required: true },
    chat_name: { type: 'string' },
    started_at: { type: 'number', required: true },
    due_at: { type: 'number', required: true },
    breached_at: { type: 'number', required: true },
    assignee: { type: 'string' },
    phone_id: { type: 'string' },
    label_ids: { type: 'list', items: { type: 'string' } },
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['breach_id'] } },
  },
});
