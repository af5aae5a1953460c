import { Entity } from 'electrodb';

/**
 * The latest email one-time code of an email address (shared/auth/otp.ts): only its hash is
 * stored. One row per email, replaced by each new code; kept after use (`used_at`) so the 60 s
 * resend rule still holds. Not org-owned: sign-in happens before any org is chosen.
 * Access: by email (GetItem, conditional put/update). TTL `expires_at` (epoch s) removes it a
 * minute after the code expires.
 */
export const OtpCodeEntity = new Entity({
  model: { entity: 'otp_code', version: '1', service: 'chorus' },
  attributes: {
    email: { type: 'string', required: true, set: (v?: string) => v?.toLowerCase() },
    /** sha-256 (hex) of email + code */
    code_hash: { type: 'string', required: true },
    /** epoch ms the code was sent */
    issued_at: { type: 'number', required: true },
    /** epoch ms from which the code is expired */
    expires_at_ms: { type: 'number', required: true },
    /** wrong answers so far */
    attempts: { type: 'number', required: true, default: 0 },
    /** epoch ms the code signed someone in */
    used_at: { type: 'number' },
    /** DynamoDB TTL, epoch s */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byEmail: { pk: { field: 'pk', composite: ['email'] }, sk: { field: 'sk', composite: [] } },
  },
});
