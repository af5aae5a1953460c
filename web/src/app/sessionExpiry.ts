/**
 * Session expiry (spec §8: logout with 'Session expired! Please login again').
 * The API client (on 401), the socket (no token any more) and Amplify's `tokenRefresh_failure`
 * (an expired or revoked refresh token) call `triggerSessionExpired`; `useSessionExpiryHandler`,
 * mounted once inside the router, signs out (app/signOut.ts: stored org data cleared) and goes
 * to /login, where the notice left in sessionStorage is shown.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { Hub } from 'aws-amplify/utils';
import { setUnauthorizedHandler } from '../lib/api.ts';
import { SESSION_EXPIRED_MESSAGE } from '../lib/auth.ts';
import { signOutFlow } from './signOut.ts';

/** Cognito errors of a token refresh that mean the session is over (not a network blip). */
const EXPIRED_REFRESH = /^(NotAuthorizedException|TokenRevokedException|UserNotFoundException|RefreshTokenReuseException)/;

const NOTICE_KEY = 'chorus.login_notice';

let handler: () => void = () => {
  window.location.assign('/login');
};

export function triggerSessionExpired(): void {
  handler();
}

/** The notice to show on the login page, if any (read it once, then `clearLoginNotice`). */
export function peekLoginNotice(): string | null {
  try {
    return sessionStorage.getItem(NOTICE_KEY);
  } catch {
    return null;
  }
}

export function clearLoginNotice(): void {
  try {
    sessionStorage.removeItem(NOTICE_KEY);
  } catch {
    /* nothing to clear */
  }
}

export function useSessionExpiryHandler(): void {
  const navigate = useNavigate();
  useEffect(() => {
    let busy = false;
    handler = () => {
      if (busy) return;
      busy = true;
      try {
        sessionStorage.setItem(NOTICE_KEY, SESSION_EXPIRED_MESSAGE);
      } catch {
        /* shown only when storage works */
      }
      void signOutFlow().finally(() => {
        busy = false;
        navigate('/login', { replace: true });
      });
    };
    setUnauthorizedHandler(triggerSessionExpired);
    // an expired or revoked refresh token: Amplify drops the tokens and reports it here, before
    // the caller gets "no token" (so the notice is in place when the login page opens)
    return Hub.listen('auth', ({ payload }) => {
      if (payload.event !== 'tokenRefresh_failure') return;
      const name = (payload.data as { error?: { name?: string } } | undefined)?.error?.name ?? '';
      if (EXPIRED_REFRESH.test(name)) triggerSessionExpired();
    });
  }, [navigate]);
}
