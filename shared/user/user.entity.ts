import { Entity } from 'electrodb';

/**
 * A signed-in person's own row (not per org), keyed by lower-cased email. Holds the user metadata
 * spec §6 names: `allow_multiple_orgs` lets a free-trial user create more than one workspace.
 * Kept in the table rather than as a Cognito custom attribute: custom attributes must be declared
 * when the user pool is created and cannot be changed later, and support can set this flag with
 * one table write. Access: by email.
 */
export const UserEntity = new Entity({
  model: { entity: 'user', version: '1', service: 'chorus' },
  attributes: {
    email: { type: 'string', required: true, set: (v?: string) => v?.toLowerCase() },
    /** spec §6: may create another workspace while on a free trial */
    allow_multiple_orgs: { type: 'boolean', default: false },
    /** spec §3 User preferences; unset keys read as the defaults of shared/user/preferences.schemas.ts */
    preferences: {
      type: 'map',
      properties: {
        notifications: {
          type: 'map',
          properties: { enable_notifications: { type: 'boolean' }, enable_mobile_notifications: { type: 'boolean' } },
        },
        left_sidebar_open: { type: 'boolean' },
        /** issue 21: what to push, quiet hours, in-page sound (PushPreferences) */
        push: {
          type: 'map',
          properties: {
            new_messages: { type: 'string' },
            mentions: { type: 'boolean' },
            task_reminders: { type: 'boolean' },
            assignments: { type: 'boolean' },
            snooze_wakeups: { type: 'boolean' },
            quiet_hours: {
              type: 'map',
              properties: { enabled: { type: 'boolean' }, start: { type: 'string' }, end: { type: 'string' }, time_zone: { type: 'string' } },
            },
            sound: { type: 'boolean' },
          },
        },
      },
    },
    /** Cognito `sub` of the account this email belongs to, set on its first sign-in (shared/auth/identity.ts); one account per email */
    sub: { type: 'string' },
    /** epoch ms the user last signed in by answering an email code (shared/auth/otp.ts verifyOtp) */
    otp_signed_in_at: { type: 'number' },
    /** epoch ms of the last preferences write */
    updated_at: { type: 'number' },
    /** epoch ms */
    created_at: { type: 'number', default: () => Date.now(), readOnly: true },
  },
  indexes: {
    byEmail: { pk: { field: 'pk', composite: ['email'] }, sk: { field: 'sk', composite: [] } },
  },
});
