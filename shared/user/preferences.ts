import { db } from '../db/service.ts';
import { DEFAULT_USER_PREFERENCES, type UpdatePreferencesInput, type UserPreferences } from './preferences.schemas.ts';

type Stored = { notifications?: { enable_notifications?: boolean; enable_mobile_notifications?: boolean }; left_sidebar_open?: boolean } | undefined;

/** Stored (possibly partial) preferences over the defaults. */
function withDefaults(p: Stored): UserPreferences {
  return {
    notifications: { ...DEFAULT_USER_PREFERENCES.notifications, ...p?.notifications },
    left_sidebar_open: p?.left_sidebar_open ?? DEFAULT_USER_PREFERENCES.left_sidebar_open,
  };
}

/** GET /api/me/preferences: the user's preferences with defaults filled in (User row by email). */
export async function getUserPreferences(email: string): Promise<UserPreferences> {
  const row = (await db().entities.user.get({ email }).go()).data;
  return withDefaults(row?.preferences);
}

/**
 * PUT /api/me/preferences: merge `input` into the stored preferences and return the result.
 * The User row is created on first write (upsert). Two tabs saving at once: the last write wins,
 * which is what a person toggling a switch expects.
 */
export async function updateUserPreferences(email: string, input: UpdatePreferencesInput): Promise<UserPreferences> {
  const current = await getUserPreferences(email);
  const next: UserPreferences = {
    notifications: { ...current.notifications, ...input.notifications },
    left_sidebar_open: input.left_sidebar_open ?? current.left_sidebar_open,
  };
  await db().entities.user.upsert({ email, preferences: next, updated_at: Date.now() }).go();
  return next;
}
