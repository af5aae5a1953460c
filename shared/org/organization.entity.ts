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
    /** spec §3 org_metadata.preferences (mask_phone_numbers, member_permissions). */
    org_metadata: { type: 'any' },
    /** epoch ms */
    created_at: { type: 'number', required: true, default: () => Date.now(), readOnly: true },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
