/**
 * Sign-in with the Cognito user pool through Amplify v6.
 *
 * - `configureAuth` points Amplify at the pool of `/config.json` (and at cognito-local's endpoint locally);
 * - password sign-in uses USER_PASSWORD_AUTH (SRP is not supported by the local cognito stand-in);
 * - email code sign-in uses the custom auth flow (CUSTOM_WITHOUT_SRP; triggers in functions/auth/);
 * - Google sign-in uses the hosted UI (signInWithRedirect) when config.json has `oauth`;
 * - the API and the socket accept the **ID token**, which `getIdToken` returns (Amplify refreshes it).
 *
 * The sign-in calls themselves (password, email code, Google, password change) are in
 * `auth-signin.ts`, loaded with the login and password pages only: every other screen needs just
 * the session (getIdToken, signOutUser).
 */
import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut } from 'aws-amplify/auth';
// completes a Google sign-in when the hosted UI redirects back to /login/callback
import 'aws-amplify/auth/enable-oauth-listener';
import type { WebConfig } from '#shared/me.schemas.ts';

/** Spec §8 wording. */
export const INVALID_PASSWORD_MESSAGE =
  'Invalid email or password! Please login with OTP and set your password from Settings > Preferences';
export const SIGN_IN_FAILED_MESSAGE = 'Sign in failed! Please try again!';
export const LOGOUT_FAILED_MESSAGE = 'Logout failed! Please try again';
export const SESSION_EXPIRED_MESSAGE = 'Session expired! Please login again';

export function configureAuth(cfg: WebConfig): void {
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: cfg.userPoolId,
        userPoolClientId: cfg.userPoolClientId,
        ...(cfg.cognitoEndpoint ? { userPoolEndpoint: cfg.cognitoEndpoint } : {}),
        // Google sign-in through the Cognito hosted UI, only where a deployment configured one
        ...(cfg.oauth
          ? {
              loginWith: {
                oauth: {
                  domain: cfg.oauth.domain,
                  scopes: ['openid', 'email', 'profile'],
                  redirectSignIn: cfg.oauth.redirectSignIn,
                  redirectSignOut: cfg.oauth.redirectSignOut,
                  responseType: 'code' as const,
                  providers: ['Google' as const],
                },
              },
            }
          : {}),
      },
    },
  });
}

/** What getIdToken throws when someone is signed in but no fresh token can be had now. */
export const AUTH_UNREACHABLE_MESSAGE = 'Could not reach the Chorus server. Check your connection and try again.';

/**
 * The session is there but its tokens could not be refreshed now (the server is unreachable, e.g.
 * `npm start` restarting, or answered with a passing error). Not a sign-out: try again later.
 */
export class AuthUnavailableError extends Error {
  constructor(cause?: unknown) {
    super(AUTH_UNREACHABLE_MESSAGE, { cause });
    this.name = 'AuthUnavailableError';
  }
}

/**
 * Refresh errors after which Amplify has dropped the tokens (its TokenOrchestrator
 * `isAuthenticationError`, aws-amplify 6.22): the session is over.
 */
const SESSION_OVER = /^(NotAuthorizedException|TokenRevokedException|UserNotFoundException|PasswordResetRequiredException|UserNotConfirmedException|RefreshTokenReuseException)/;

/**
 * The current ID token (refreshed by Amplify when needed), or null when nobody is signed in.
 * Amplify keeps the tokens when a refresh fails for any reason but a definitive one (an expired
 * or revoked refresh token: `NotAuthorizedException` & co., then it clears them and answers no
 * tokens); that case throws {@link AuthUnavailableError} instead of answering null, so a server
 * restart or a network blip never signs anyone out (issue 49 item 9).
 * @throws AuthUnavailableError the tokens are kept but could not be refreshed now
 */
export async function getIdToken(forceRefresh = false): Promise<string | null> {
  try {
    const session = await fetchAuthSession({ forceRefresh });
    return session.tokens?.idToken?.toString() ?? null;
  } catch (e) {
    if (SESSION_OVER.test((e as { name?: string } | null)?.name ?? '')) return null;
    throw new AuthUnavailableError(e);
  }
}

/** Email in the current ID token, if any (used for display before /api/me answers). */
export async function currentEmail(): Promise<string | null> {
  try {
    const session = await fetchAuthSession();
    const email = session.tokens?.idToken?.payload?.email;
    return typeof email === 'string' ? email : null;
  } catch {
    return null;
  }
}

export type SignInResult = { ok: true } | { ok: false; message: string };

/** Sign out of this browser. Returns false when Amplify reported a failure (tokens may remain). */
export async function signOutUser(): Promise<boolean> {
  try {
    await signOut();
    return true;
  } catch (e) {
    console.error('sign-out failed', e);
    return false;
  }
}
