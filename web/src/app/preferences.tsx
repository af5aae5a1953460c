/**
 * The signed-in user's preferences (spec §3: notifications, left_sidebar_open) and their online
 * status in the current org (spec §4 User status), shared by the sidebar, the shell and
 * /settings/preferences. Writes are optimistic and roll back on failure with a toast.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { DEFAULT_USER_PREFERENCES, mergePreferences, STATUS_UPDATE_FAILED_MESSAGE, type UpdatePreferencesInput, type UserPreferences } from '#shared/user/preferences.schemas.ts';
import { api, errorMessage } from '../lib/api.ts';
import { useSession } from './session.tsx';
import { useToast } from './toast.tsx';

export interface UserPrefsApi {
  /** null until GET /api/me/preferences answered */
  prefs: UserPreferences | null;
  savePrefs: (patch: UpdatePreferencesInput) => Promise<void>;
  isOnline: boolean;
  setOnline: (online: boolean) => Promise<void>;
}

const Ctx = createContext<UserPrefsApi | null>(null);

/** Preferences and status of the session; throws outside {@link UserPrefsProvider}. */
export function useUserPrefs(): UserPrefsApi {
  const v = useContext(Ctx);
  if (!v) throw new Error('useUserPrefs outside UserPrefsProvider');
  return v;
}

const merge = mergePreferences;

/** Loads the preferences once per mount; the status starts from GET /api/me's `is_online`. */
export function UserPrefsProvider({ children }: { children: ReactNode }) {
  const { org } = useSession();
  const toast = useToast();
  const [prefs, setPrefs] = useState<UserPreferences | null>(null);
  const [isOnline, setIsOnline] = useState(org.is_online !== false);

  useEffect(() => {
    let cancelled = false;
    api
      .preferences()
      .then((p) => !cancelled && setPrefs(p))
      .catch(() => !cancelled && setPrefs((p) => p ?? DEFAULT_USER_PREFERENCES));
    return () => {
      cancelled = true;
    };
  }, []);

  const savePrefs = useCallback(
    async (patch: UpdatePreferencesInput) => {
      let before: UserPreferences | null = null;
      setPrefs((p) => {
        before = p;
        return merge(p ?? DEFAULT_USER_PREFERENCES, patch);
      });
      try {
        setPrefs(await api.savePreferences(patch));
      } catch (e) {
        setPrefs(before);
        toast.show(`Could not save your preferences. ${errorMessage(e)}`, 'error');
      }
    },
    [toast],
  );

  const orgId = org.org_id;
  const setOnline = useCallback(
    async (online: boolean) => {
      setIsOnline(online);
      try {
        await api.setMyStatus(orgId, online);
      } catch {
        setIsOnline(!online);
        toast.show(STATUS_UPDATE_FAILED_MESSAGE, 'error');
      }
    },
    [orgId, toast],
  );

  const value = useMemo(() => ({ prefs, savePrefs, isOnline, setOnline }), [prefs, savePrefs, isOnline, setOnline]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}
