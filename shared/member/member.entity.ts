import { Entity } from 'electrodb';

/** Org member, spec §3 (email, member_name, member_image, user_id, is_active, role). */
export const MemberEntity = new Entity({
  model: { entity: 'member', version: '1', service: 'chorus' },
  attributes: {
    org_id: { type: 'string', required: true },
    /** lower-cased email; the member key (spec: members are matched by email and org_id) */
    email: { type: 'string', required: true, set: (v?: string) => v?.toLowerCase() },
    member_name: { type: 'string' },
    member_image: { type: 'string' },
    /** Cognito `sub`, filled when the invitee signs in and joins */
    user_id: { type: 'string' },
    is_active: { type: 'boolean', default: true },
    role: { type: ['admin', 'member'] as const, required: true },
    is_online: { type: 'boolean', default: true },
    /** email of the admin who invited this member (pending invites: is_active false) */
    invited_by: { type: 'string' },
    /** epoch ms */
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
  },
  indexes: {
    // members of an org
    byOrg: { pk: { field: 'pk', composite: ['org_id'] }, sk: { field: 'sk', composite: ['email'] } },
    // orgs of a user
    byEmail: { index: 'gsi1', pk: { field: 'gsi1pk', composite: ['email'] }, sk: { field: 'gsi1sk', composite: ['org_id'] } },
  },
});
