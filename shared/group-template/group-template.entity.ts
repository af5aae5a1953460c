import { Entity } from 'electrodb';

/**
 * A group template (spec §2 settings/group-templates; issue 15 item 6): what a new WhatsApp group
 * gets when it is created from it — its name (subject), description, picture and the two
 * admin-only settings (WhatsApp's 'announcement': only admins send messages; 'locked': only admins
 * edit the group's info). `picture` is a blob key (`{ path, mimetype, filename }`): an image copied
 * from the media library or uploaded for the template. Times epoch ms. At most
 * MAX_GROUP_TEMPLATES per org, so the list is one bounded Query (ACCESS_PATTERNS g1).
 */
export const GroupTemplateEntity = new Entity({
  model: { entity: 'group_template', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** `gt_` + ULID */
    template_id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    description: { type: 'string' },
    /** `{ path, mimetype, filename }` of the picture in the blob store, or absent */
    picture: { type: 'any' },
    only_admins_send: { type: 'boolean', required: true, default: false },
    only_admins_edit_info: { type: 'boolean', required: true, default: false },
    created_by: { type: 'string', required: true },
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    updated_at: { type: 'number', watch: '*', set: () => Date.now() },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['template_id'] } },
  },
});

/**
 * One "Create group" request (issue 15 item 6): made by the API, carried out by the session worker
 * of the WhatsApp Web number (commands.ts 'create-group'), which records how it went here.
 * `status`: requested -> creating -> created | failed. The worker moves requested -> creating with
 * a condition before it asks WhatsApp, so a redelivered command never creates a second group (a
 * crash while 'creating' ends as failed with words saying to check WhatsApp). TTL 30 days.
 */
export const GroupRequestEntity = new Entity({
  model: { entity: 'group_request', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** `grq_` + ULID */
    request_id: { type: 'string', required: true },
    template_id: { type: 'string', required: true },
    phone_id: { type: 'string', required: true },
    subject: { type: 'string', required: true },
    participant_count: { type: 'number', required: true },
    status: { type: ['requested', 'creating', 'created', 'failed'] as const, required: true },
    /** the new group's chat id (`…@g.us`) once created */
    group_chat_id: { type: 'string' },
    /** why it failed, in plain words; or what could not be applied after creating (picture, settings) */
    detail: { type: 'string' },
    requested_by: { type: 'string', required: true },
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
    updated_at: { type: 'number', watch: '*', set: () => Date.now() },
    /** epoch seconds (DynamoDB TTL) */
    expires_at: { type: 'number' },
  },
  indexes: {
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['request_id'] } },
  },
});
