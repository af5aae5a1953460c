/**
 * Sign-in with the Cognito user pool through Amplify v6.
 *
 * - `configureAuth` points Amplify at the pool of `/config.json` (and at cognito-local's endpoint locally);
 * - sign-in uses USER_PASSWORD_AUTH (SRP is not supported by the local cognito stand-in);
 * - the API and the socket accept the **ID token**, which `getIdToken` returns (Amplify refreshes it).
 */
import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signIn, signOut, updatePassword } from 'aws-amplify/auth';
import { checkPasswordChange, PASSWORD_MESSAGES } from '#shared/auth/password.rules.ts';
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
      },
    },
  });
}

/** The current ID token (refreshed by Amplify when needed), or null when nobody is signed in. */
export async function getIdToken(forceRefresh = false): Promise<string | null> {
  try {
    const session = await fetchAuthSession({ forceRefresh });
    return session.tokens?.idToken?.toString() ?? null;
  } catch {
    return null;
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

const errorName = (e: unknown): string => (e && typeof e === 'object' && 'name' in e ? String((e as { name: unknown }).name) : '');

/** Describe a sign-in step Chorus cannot complete yet, in plain words. */
function unsupportedStep(step: string): string {
  switch (step) {
    case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
      return 'This account must set a new password before it can sign in, and Chorus cannot do that here yet. Ask your admin to set a permanent password.';
    case 'CONFIRM_SIGN_UP':
      return 'This account is not confirmed yet. Confirm your email address, then sign in again.';
    case 'RESET_PASSWORD':
      return 'The password of this account must be reset before it can sign in. Ask your admin to reset it.';
    default:
      return `Sign-in needs an extra step (${step}) that Chorus does not support yet.`;
  }
}

/** Sign in with email and password. Never throws: failures come back as a message for the user. */
export async function signInWithPassword(email: string, password: string): Promise<SignInResult> {
  const attempt = () => signIn({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  try {
    let out;
    try {
      out = await attempt();
    } catch (e) {
      if (errorName(e) !== 'UserAlreadyAuthenticatedException') throw e;
      // a previous session is still stored: drop it and sign in as the person who typed the form
      await signOut().catch(() => undefined);
      out = await attempt();
    }
    if (out.isSignedIn || out.nextStep.signInStep === 'DONE') return { ok: true };
    return { ok: false, message: unsupportedStep(out.nextStep.signInStep) };
  } catch (e) {
    switch (errorName(e)) {
      case 'NotAuthorizedException':
      case 'UserNotFoundException':
      case 'InvalidPasswordException':
      case 'EmptySignInUsername':
      case 'EmptySignInPassword':
        return { ok: false, message: INVALID_PASSWORD_MESSAGE };
      case 'UserNotConfirmedException':
        return { ok: false, message: unsupportedStep('CONFIRM_SIGN_UP') };
      case 'PasswordResetRequiredException':
        return { ok: false, message: unsupportedStep('RESET_PASSWORD') };
      case 'NetworkError':
        return { ok: false, message: `${SIGN_IN_FAILED_MESSAGE} (the sign-in service could not be reached)` };
      default:
        console.error('sign-in failed', e);
        return { ok: false, message: SIGN_IN_FAILED_MESSAGE };
    }
  }
}

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

/**
 * Change the signed-in user's password (spec §5, §7 'update user with password'): Cognito
 * ChangePassword with the access token, straight from the browser (Amplify `updatePassword`;
 * cognito-local implements the same target locally). The rule of shared/auth/password.rules.ts is
 * checked first, so the same-password case never reaches Cognito. Never throws: the result carries
 * spec §8's message.
 */
export async function changePassword(oldPassword: string, newPassword: string): Promise<{ ok: boolean; message: string }> {
  const check = checkPasswordChange(oldPassword, newPassword);
  if (!check.ok) return { ok: false, message: check.reason === 'same_password' ? PASSWORD_MESSAGES.same_password : PASSWORD_MESSAGES.failed };
  try {
    await updatePassword({ oldPassword, newPassword: check.password });
    return { ok: true, message: PASSWORD_MESSAGES.updated };
  } catch (e) {
    console.error('password update failed', errorName(e));
    return { ok: false, message: PASSWORD_MESSAGES.failed };
  }
}
