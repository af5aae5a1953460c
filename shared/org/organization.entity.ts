import { Entity } from 'electrodb';

/** Organization (workspace), spec §3. Access: by id. */
export const OrganizationEntity = new Entity({
  model: { entity: 'organization', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    org_name: { type: 'string', required: true },
    org_image: { type: 'string' },
    is_free_trial: { type: 'boolean', default: true },
    is_platform: { type: 'boolean', default: false },
    /** spec §3 organization creation payload (POST /api/orgs); phone in E.164 */
    contact_name: { type: 'string' },
    phone_number: { type: 'string' },
    referral_source: { type: 'string' },
    /** 'INR' | 'BRL' | 'USD' (spec §9: USD by default) */
    currency: { type: 'string' },
    /** email of the user who created the workspace */
    created_by: { type: 'string' },
    /** epoch ms: when the current plan (the free trial at creation) started */
    plan_started_at: { type: 'number' },
    /** free-trial length in days (shared/org/org.ts TRIAL_DAYS at creation) */
    trial_days: { type: 'number' },
    /** epoch ms: plan_started_at + trial_days */
    trial_ends_at: { type: 'number' },
    /** spec §3 org_metadata.preferences (mask_phone_numbers, member_permissions). */
    org_metadata: { type: 'any' },
    /** epoch ms */
    created_at: { type: 'number', required: true, default: () => Date.now(), readOnly: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
