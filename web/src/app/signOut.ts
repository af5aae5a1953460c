/**
 * Sign-out (spec §4): end the session locally (Cognito sign-out with scope local: the tokens
 * stored in this browser are dropped, other devices stay signed in), unsubscribe this device from
 * notifications, clear the organization data Chorus stored in this browser, then /login (the
 * caller navigates). Spec §8: 'Logout failed! Please try again' when the sign-out itself fails;
 * unsubscribe failures are only logged and never block it.
 *
 * Notifications (issue 21): this device is unsubscribed from every organization it registered
 * with (spec §7 unsubscribe-all-for-device, the orgs kept in this browser), then its browser push
 * subscription is dropped (features/notifications/push/push-client.ts, loaded only now).
 */
import { signOutUser } from '../lib/auth.ts';
import { resetActiveSession } from './activeSession.ts';
import { queryClient } from '../lib/query-client.ts';

/** sessionStorage keys that survive the clean-up (the notice the login page shows next). */
const KEEP_SESSION_KEYS = new Set(['chorus.login_notice']);

/** Unsubscribe this device from notifications for every stored org (best effort: failures are logged only). */
export async function unsubscribeDevice(): Promise<void> {
  try {
    if (!('serviceWorker' in navigator)) return;
    const { unsubscribeEverywhere } = await import('../features/notifications/push/push-client.ts');
    await unsubscribeEverywhere();
  } catch (e) {
    console.warn('unsubscribe from notifications failed', e);
  }
}

/**
 * Remove every Chorus key (`chorus.*`) from localStorage and sessionStorage: the remembered
 * organization, UI state (sidebar, details panel) and this browser's session id. The sign-in
 * tokens are Amplify's, removed by the sign-out itself.
 */
export function clearStoredOrgData(): void {
  for (const store of [localStorage, sessionStorage]) {
    try {
      for (const k of Object.keys(store)) if (k.startsWith('chorus.') && !(store === sessionStorage && KEEP_SESSION_KEYS.has(k))) store.removeItem(k);
    } catch {
      /* storage not available: nothing stored */
    }
  }
  resetActiveSession();
}

/**
 * The sign-out flow of spec §4 without the navigation.
 * @returns false when the sign-out failed (the caller shows 'Logout failed! Please try again'
 *   and stays); stored data is cleared only after a successful sign-out
 */
export async function signOutFlow(): Promise<boolean> {
  await unsubscribeDevice();
  if (!(await signOutUser())) return false;
  clearStoredOrgData();
  queryClient.clear();
  return true;
}
