import { Entity } from 'electrodb';

/**
 * Custom property definition, spec §3 `{ property_id, property_name, property_value_type,
 * property_value }` (issue 15 adds the types number and date to the spec's dropdown and text).
 * `property_value` is the dropdown's option map (option id -> label). Values live on chats and
 * contacts as `custom_properties` (property_id -> value). Times epoch ms.
 */
export const PropertyDefEntity = new Entity({
  model: { entity: 'property_def', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** `prp_` + ULID */
    property_id: { type: 'string', required: true },
    property_name: { type: 'string', required: true },
    property_value_type: { type: ['text', 'dropdown', 'number', 'date'] as const, required: true },
    property_value: { type: 'any' },
    /** the dropdown's option ids in the order the admin gave them (a DynamoDB map keeps no order) */
    option_order: { type: 'list', items: { type: 'string' } },
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    updated_at: { type: 'number', watch: '*', set: () => Date.now() },
  },
  indexes: {
    // property definitions of an org (a few dozen: one Query)
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['property_id'] } },
  },
});
