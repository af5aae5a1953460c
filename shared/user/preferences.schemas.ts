/** API contracts of GET/PUT /api/me/preferences (spec §3 User preferences), browser-safe zod. */
import { z } from 'zod';

const flag = z.boolean({ invalid_type_error: 'must be true or false', required_error: 'must be true or false' });
const hhmm = z.string({ invalid_type_error: 'must be text' }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour)');

/** An IANA time zone name the runtime knows ('Asia/Kolkata', 'UTC'). */
const timeZone = z
  .string({ invalid_type_error: 'must be text' })
  .max(64, 'is too long')
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone');

/**
 * What pushes a user wants (issue 21; stored with the spec §3 preferences, for every device):
 * - new_messages: 'assigned' (chats assigned to me), 'assigned_and_unassigned' (also chats nobody
 *   owns) or 'none';
 * - mentions, task_reminders, assignments (a chat or ticket assigned to me), snooze_wakeups;
 * - quiet_hours: no pushes from `start` to `end` (HH:MM, 24-hour, in `time_zone`; start > end
 *   spans midnight);
 * - sound: a short sound in the open app when a message arrives (in-page, not a push).
 */
export const PushPreferences = z.object({
  new_messages: z.enum(['assigned', 'assigned_and_unassigned', 'none']),
  mentions: z.boolean(),
  task_reminders: z.boolean(),
  assignments: z.boolean(),
  snooze_wakeups: z.boolean(),
  quiet_hours: z.object({ enabled: z.boolean(), start: z.string(), end: z.string(), time_zone: z.string() }),
  sound: z.boolean(),
});
export type PushPreferences = z.infer<typeof PushPreferences>;

export const DEFAULT_PUSH_PREFERENCES: PushPreferences = {
  new_messages: 'assigned',
  mentions: true,
  task_reminders: true,
  assignments: true,
  snooze_wakeups: true,
  quiet_hours: { enabled: false, start: '22:00', end: '07:00', time_zone: 'UTC' },
  sound: false,
};

/** The stored shape, every key filled (defaults applied). */
export const UserPreferences = z.object({
  notifications: z.object({ enable_notifications: z.boolean(), enable_mobile_notifications: z.boolean() }),
  /** spec §3: the left sidebar is open unless the user collapsed it */
  left_sidebar_open: z.boolean(),
  /** issue 21: what to push, quiet hours, in-page sound */
  push: PushPreferences,
});
export type UserPreferences = z.infer<typeof UserPreferences>;

/**
 * Defaults for a user who never saved preferences. left_sidebar_open is spec §3's; notifications
 * default on (the browser still asks permission before any is shown, spec §4 Notification toggle).
 */
export const DEFAULT_USER_PREFERENCES: UserPreferences = {
  notifications: { enable_notifications: true, enable_mobile_notifications: true },
  left_sidebar_open: true,
  push: DEFAULT_PUSH_PREFERENCES,
};

/** PUT /api/me/preferences body: any subset; keys left out keep their stored value. */
export const UpdatePreferencesInput = z
  .object({
    notifications: z.object({ enable_notifications: flag.optional(), enable_mobile_notifications: flag.optional() }).strict().optional(),
    left_sidebar_open: flag.optional(),
    push: z
      .object({
        new_messages: z.enum(['assigned', 'assigned_and_unassigned', 'none'], { errorMap: () => ({ message: "must be 'assigned', 'assigned_and_unassigned' or 'none'" }) }).optional(),
        mentions: flag.optional(),
        task_reminders: flag.optional(),
        assignments: flag.optional(),
        snooze_wakeups: flag.optional(),
        quiet_hours: z.object({ enabled: flag.optional(), start: hhmm.optional(), end: hhmm.optional(), time_zone: timeZone.optional() }).strict().optional(),
        sound: flag.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type UpdatePreferencesInput = z.infer<typeof UpdatePreferencesInput>;

/** PUT /api/orgs/{org_id}/me/status body (spec §4 User status). */
export const UpdateStatusInput = z.object({ is_online: flag }).strict();
export type UpdateStatusInput = z.infer<typeof UpdateStatusInput>;

/** Spec §8 wording for a failed status toggle. */
export const STATUS_UPDATE_FAILED_MESSAGE = 'Error updating status. Please try again';

/** `patch` over `p`, key by key (nested objects merged; keys left out keep their value). Pure; the server and the web app's optimistic update share it. */
export function mergePreferences(p: UserPreferences, patch: UpdatePreferencesInput): UserPreferences {
  const push = patch.push ?? {};
  return {
    notifications: { ...p.notifications, ...patch.notifications },
    left_sidebar_open: patch.left_sidebar_open ?? p.left_sidebar_open,
    push: { ...p.push, ...push, quiet_hours: { ...p.push.quiet_hours, ...push.quiet_hours } },
  };
}
