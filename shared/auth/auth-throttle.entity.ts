import { Entity } from 'electrodb';

/**
 * One throttle counter of email code sign-in (shared/auth/otp.ts, rules in otp.rules.ts
 * `countEvent` / `countFailure`): events of one key within a fixed window, and for the wrong-code
 * counter a lock. Keys: `<scope>#<subject>`, e.g. `prepare-email#a@b.c`, `prepare-address#203.0.113.9`,
 * `request-email#a@b.c`, `verify-fail#a@b.c`. Not org-owned (before sign-in).
 * Access: by key (GetItem; put conditional on the state read, so two requests cannot both take the
 * last slot). TTL `expires_at` (epoch s) removes it once its window and lock have ended.
 */
export const AuthThrottleEntity = new Entity({
  model: { entity: 'auth_throttle', version: '1', service: 'chorus' },
  attributes: {
    key: { type: 'string', required: true },
    /** events counted in the current window */
    count: { type: 'number', required: true },
    /** epoch ms the current window began */
    window_start: { type: 'number', required: true },
    /** epoch ms until which the key is locked (wrong-code lockout) */
    locked_until: { type: 'number' },
    /** DynamoDB TTL, epoch s */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byKey: { pk: { field: 'pk', composite: ['key'] }, sk: { field: 'sk', composite: [] } },
  },
});
