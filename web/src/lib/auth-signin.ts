/**
 * The sign-in calls of the login page and the password dialog (Amplify v6 `signIn`,
 * `confirmSignIn`, `signInWithRedirect`, `updatePassword`), apart from `auth.ts` so that the app's
 * first screen does not load them: a signed-in user only needs the session.
 * - password sign-in uses USER_PASSWORD_AUTH (SRP is not supported by the local cognito stand-in);
 * - email code sign-in uses the custom auth flow (CUSTOM_WITHOUT_SRP; triggers in functions/auth/);
 * - Google sign-in uses the hosted UI (signInWithRedirect) when config.json has `oauth`.
 */
import { confirmSignIn, signIn, signInWithRedirect, signOut, updatePassword } from 'aws-amplify/auth';
import { checkPasswordChange, PASSWORD_MESSAGES } from '#shared/auth/password.rules.ts';
import { OTP_INVALID_MESSAGE, OTP_RESEND_MESSAGE } from '#shared/auth/otp.rules.ts';
import { getConfig } from './config.ts';
import { INVALID_PASSWORD_MESSAGE, SIGN_IN_FAILED_MESSAGE, type SignInResult } from './auth.ts';

const errorMessage = (e: unknown): string => (e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : '');

/** Shown instead of the Google button's action where no Google client is configured (e.g. locally). */
export const GOOGLE_UNAVAILABLE_MESSAGE = 'Google sign-in needs a deployment with a Google client configured';

/**
 * Start Google sign-in: Amplify sends the browser to the Cognito hosted UI (Google identity
 * provider), which returns to /login/callback. Never throws: a failure comes back as words.
 */
export async function startGoogleSignIn(): Promise<SignInResult> {
  try {
    await signInWithRedirect({ provider: 'Google' });
    return { ok: true };
  } catch (e) {
    if (errorName(e) === 'UserAlreadyAuthenticatedException') return { ok: true };
    console.error('google sign-in failed', e);
    return { ok: false, message: `${SIGN_IN_FAILED_MESSAGE} (${errorMessage(e) || 'Google sign-in could not start'})` };
  }
}

/** A code was sent: where, and until when (epoch ms) it works / another may be asked for. */
export type OtpRequestResult = { ok: true; email: string; expiresAt: number; resendAt: number } | { ok: false; message: string };

const epoch = (v: unknown): number => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0);

/**
 * Ask for an email one-time code (spec §4, §7): make sure the email has an account (spec §7 'user
 * creation allowed': POST /api/auth/otp/prepare), then start Cognito's custom auth flow (Amplify
 * CUSTOM_WITHOUT_SRP), whose CreateAuthChallenge trigger mails the code. The same calls run locally,
 * where the runtime's stand-in runs the same triggers. Errors: the server's message (e.g. the 60 s
 * rule), else spec §8's 'Sorry! You can only request an OTP every 60 sec'. Never throws.
 */
export async function requestEmailCode(email: string): Promise<OtpRequestResult> {
  const username = email.trim().toLowerCase();
  try {
    const res = await fetch(`${getConfig().apiUrl}/api/auth/otp/prepare`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: username }),
    });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      return { ok: false, message: body?.error?.message || OTP_RESEND_MESSAGE };
    }
    const out = await signInFresh({ username, options: { authFlowType: 'CUSTOM_WITHOUT_SRP' } });
    if (out.nextStep.signInStep !== 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE') return { ok: false, message: unsupportedStep(out.nextStep.signInStep) };
    const info = out.nextStep.additionalInfo ?? {};
    return { ok: true, email: username, expiresAt: epoch(info.expires_at), resendAt: epoch(info.resend_at) };
  } catch (e) {
    return { ok: false, message: serverMessage(e) || OTP_RESEND_MESSAGE };
  }
}

/**
 * The words of a Cognito error worth showing: a trigger's own message without Cognito's wrapper
 * ('CreateAuthChallenge failed with error <message>.'); '' for anything else.
 */
function serverMessage(e: unknown): string {
  if (errorName(e) !== 'UserLambdaValidationException') return '';
  const m = /failed with error (.*?)\.?$/s.exec(errorMessage(e));
  return (m?.[1] ?? '').trim();
}

export type OtpVerifyResult = { ok: true } | { ok: false; message: string; /** the sign-in attempt is over: ask for a new code */ restart: boolean };

/**
 * Answer the code (Amplify confirmSignIn). Right: signed in. Wrong while the code still works: spec
 * §8's 'OTP is expired or invalid! Please try again' and another try; expired, used up or out of
 * attempts: the same message and `restart`. Never throws.
 */
export async function verifyEmailCode(code: string): Promise<OtpVerifyResult> {
  try {
    const out = await confirmSignIn({ challengeResponse: code.replace(/\s+/g, '') });
    if (out.isSignedIn || out.nextStep.signInStep === 'DONE') return { ok: true };
    if (out.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE') return { ok: false, message: OTP_INVALID_MESSAGE, restart: false };
    return { ok: false, message: unsupportedStep(out.nextStep.signInStep), restart: true };
  } catch (e) {
    if (errorName(e) === 'NetworkError') return { ok: false, message: `${SIGN_IN_FAILED_MESSAGE} (the sign-in service could not be reached)`, restart: false };
    return { ok: false, message: OTP_INVALID_MESSAGE, restart: true };
  }
}

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

/**
 * Amplify `signIn`, first dropping a session that is still stored (Amplify refuses with
 * UserAlreadyAuthenticatedException): whoever typed the form is who signs in.
 */
async function signInFresh(input: Parameters<typeof signIn>[0]): ReturnType<typeof signIn> {
  try {
    return await signIn(input);
  } catch (e) {
    if (errorName(e) !== 'UserAlreadyAuthenticatedException') throw e;
    await signOut().catch(() => undefined);
    return signIn(input);
  }
}

/** Sign in with email and password. Never throws: failures come back as a message for the user. */
export async function signInWithPassword(email: string, password: string): Promise<SignInResult> {
  try {
    const out = await signInFresh({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
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
