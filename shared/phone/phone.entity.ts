import { Entity } from 'electrodb';

/**
 * A connected business number, spec §3 Phone (phone_id, org_phone, is_ready, created_at,
 * first_connected_at). For the WhatsApp Cloud API, `phone_id` is Meta's `phone_number_id` and
 * `org_phone` the display number in digits.
 */
export const PhoneEntity = new Entity({
  model: { entity: 'phone', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    phone_id: { type: 'string', required: true },
    /** digits only, e.g. "15550783881" */
    org_phone: { type: 'string', required: true },
    /** 'wa_cloud' (Cloud API) or 'wa_web' (a linked WhatsApp Web device); what each can do: shared/whatsapp/capabilities.ts */
    connection_type: { type: ['wa_cloud', 'wa_web'] as const, required: true, default: 'wa_cloud' },
    /** the WhatsApp Business Account id, informational */
    waba_id: { type: 'string' },
    is_ready: { type: 'boolean', default: true },
    /** Meta's verified business name, from the Graph API when the phone was added */
    verified_name: { type: 'string' },
    /** the phone's own Cloud API access token, AES-256-GCM encrypted (shared/phone/token-crypto.ts); never returned by the API */
    access_token_enc: { type: 'string' },
    /** email of the admin who added the phone */
    added_by: { type: 'string' },
    /** epoch ms */
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    first_connected_at: { type: 'number' },
  },
  indexes: {
    // phones of an org
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['phone_id'] } },
    // inbound routing: Cloud API phone_number_id -> org (not org-scoped: Meta's id is global)
    byExternalId: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['connection_type', 'phone_id'] }, sk: { field: 'gsi1sk', composite: [] } },
  },
});
