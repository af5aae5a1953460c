/**
 * Session expiry (spec §8: logout with 'Session expired! Please login again').
 * The API client (on 401) and the socket (no token any more) call `triggerSessionExpired`;
 * `useSessionExpiryHandler`, mounted once inside the router, signs out and goes to /login,
 * where the notice left in sessionStorage is shown.
 */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { setUnauthorizedHandler } from '../lib/api.ts';
import { SESSION_EXPIRED_MESSAGE, signOutUser } from '../lib/auth.ts';

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
      void signOutUser().finally(() => {
        busy = false;
        navigate('/login', { replace: true });
      });
    };
    setUnauthorizedHandler(triggerSessionExpired);
  }, [navigate]);
}
