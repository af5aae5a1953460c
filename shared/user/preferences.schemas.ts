/** API contracts of GET/PUT /api/me/preferences (spec §3 User preferences), browser-safe zod. */
import { z } from 'zod';

const flag = z.boolean({ invalid_type_error: 'must be true or false', required_error: 'must be true or false' });

/** The stored shape, every key filled (defaults applied). */
export const UserPreferences = z.object({
  notifications: z.object({ enable_notifications: z.boolean(), enable_mobile_notifications: z.boolean() }),
  /** spec §3: the left sidebar is open unless the user collapsed it */
  left_sidebar_open: z.boolean(),
});
export type UserPreferences = z.infer<typeof UserPreferences>;

/**
 * Defaults for a user who never saved preferences. left_sidebar_open is spec §3's; notifications
 * default on (the browser still asks permission before any is shown, spec §4 Notification toggle).
 */
export const DEFAULT_USER_PREFERENCES: UserPreferences = {
  notifications: { enable_notifications: true, enable_mobile_notifications: true },
  left_sidebar_open: true,
};

/** PUT /api/me/preferences body: any subset; keys left out keep their stored value. */
export const UpdatePreferencesInput = z
  .object({
    notifications: z.object({ enable_notifications: flag.optional(), enable_mobile_notifications: flag.optional() }).strict().optional(),
    left_sidebar_open: flag.optional(),
  })
  .strict();
export type UpdatePreferencesInput = z.infer<typeof UpdatePreferencesInput>;

/** PUT /api/orgs/{org_id}/me/status body (spec §4 User status). */
export const UpdateStatusInput = z.object({ is_online: flag }).strict();
export type UpdateStatusInput = z.infer<typeof UpdateStatusInput>;

/** Spec §8 wording for a failed status toggle. */
export const STATUS_UPDATE_FAILED_MESSAGE = 'Error updating status. Please try again';
