import { Entity } from 'electrodb';

/**
 * Which email a Cognito user (`sub`) is in Chorus: written once, on the user's first signed-in
 * request (shared/auth/identity.ts), and never changed by a later token. Memberships are keyed by
 * email; resolving them through this row means a token whose email claim changed cannot act as
 * another person's email. The other direction (email → sub) is the User row's `sub`, written
 * conditionally in the same step, so one email belongs to one account. Not org-owned.
 * Access: by sub (GetItem, conditional create).
 */
export const UserIdentityEntity = new Entity({
  model: { entity: 'user_identity', version: '1', service: 'chorus' },
  attributes: {
    /** Cognito `sub` (the user pool's immutable user id) */
    sub: { type: 'string', required: true, readOnly: true },
    /** lower-cased email of the first sign-in */
    email: { type: 'string', required: true, readOnly: true, set: (v?: string) => v?.toLowerCase() },
    /** epoch ms */
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
  },
  indexes: {
    bySub: { pk: { field: 'pk', composite: ['sub'] }, sk: { field: 'sk', composite: [] } },
  },
});
