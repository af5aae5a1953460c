import { db } from '../db/service.ts';
import { DEFAULT_USER_PREFERENCES, mergePreferences, type UpdatePreferencesInput, type UserPreferences } from './preferences.schemas.ts';

type Stored = UpdatePreferencesInput | undefined;

/** Stored (possibly partial) preferences over the defaults. */
export function withDefaults(p: Stored): UserPreferences {
  return mergePreferences(DEFAULT_USER_PREFERENCES, p ?? {});
}

/** GET /api/me/preferences: the user's preferences with defaults filled in (User row by email). */
export async function getUserPreferences(email: string): Promise<UserPreferences> {
  const row = (await db().entities.user.get({ email }).go()).data;
  return withDefaults(row?.preferences as Stored);
}

/**
 * PUT /api/me/preferences: merge `input` into the stored preferences and return the result.
 * The User row is created on first write (upsert). Two tabs saving at once: the last write wins,
 * which is what a person toggling a switch expects.
 */
export async function updateUserPreferences(email: string, input: UpdatePreferencesInput): Promise<UserPreferences> {
  const current = await getUserPreferences(email);
  const next = mergePreferences(current, input);
  await db().entities.user.upsert({ email, preferences: next, updated_at: Date.now() }).go();
  return next;
}
