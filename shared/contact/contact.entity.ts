import { Entity } from 'electrodb';

/** A customer known to the org; `contact_id` is the WhatsApp id (wa_id, digits). */
export const ContactEntity = new Entity({
  model: { entity: 'contact', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    contact_id: { type: 'string', required: true },
    /** WhatsApp profile name as last seen in a webhook */
    contact_name: { type: 'string' },
    phone: { type: 'string' },
    /** epoch ms */
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    updated_at: { type: 'number', watch: '*', set: () => Date.now() },
  },
  indexes: {
    // contact by wa_id
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['contact_id'] } },
  },
});
