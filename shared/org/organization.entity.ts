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
    // --- issue 22: plan and subscription (shared/plan/entitlements.rules.ts reads them) ---
    /** spec §3 org_plan: the paid tier and when the current period ends (epoch SECONDS, from the provider) */
    org_plan: { type: 'map', properties: { plan_id: { type: 'string' }, current_period_end: { type: 'number' } } },
    /** spec §3 */
    is_enterprise: { type: 'boolean' },
    /** spec §3: trialing | active | past_due | canceled | ended; moved only by verified provider events (shared/plan/plan.ts) */
    subscription_status: { type: 'string' },
    /** paid user licences (seats) */
    licences: { type: 'number' },
    /** spec §9 add-ons: extra phones and users */
    addons: { type: 'map', properties: { phones: { type: 'number' }, users: { type: 'number' } } },
    /** yearly | monthly | weekly | custom */
    billing_frequency: { type: 'string' },
    /** epoch SECONDS: the provider's `created` of the last billing event applied (older events are ignored) */
    billing_event_at: { type: 'number' },
    /** the payment provider's customer id (Stripe `cus_…`) */
    billing_customer_id: { type: 'string' },
    /** epoch ms: the one trial extension request (spec §9: one more week) */
    trial_extension_requested_at: { type: 'number' },
    /** epoch ms: when the team granted it */
    trial_extended_at: { type: 'number' },
    /** spec §3 access_scopes.feature_flags (maintenance, and the flags an admin may set on /settings/config) */
    access_scopes: { type: 'any' },
    /** spec §3 display_language (BCP 47, e.g. 'en') */
    display_language: { type: 'string' },
    /** IANA time zone of the business, e.g. 'Asia/Kolkata' (settings/general) */
    time_zone: { type: 'string' },
    /** business hours per weekday (settings/general): { mon: { open: '09:00', close: '18:00' } | null, … } */
    business_hours: { type: 'any' },
    /** the media library's settings (settings/library) */
    library_settings: { type: 'any' },
    // --- end issue 22 ---
    /** spec §3 org_metadata.preferences (mask_phone_numbers, member_permissions). */
    org_metadata: { type: 'any' },
    /** epoch ms */
    created_at: { type: 'number', required: true, default: () => Date.now(), readOnly: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
