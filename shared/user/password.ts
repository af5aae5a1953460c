import { setPasswordWithoutCurrentUntil, passwordProblems, stripPassword, PASSWORD_RULES } from '../auth/password.rules.ts';
import type { Claims } from '../auth/jwt.ts';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { identityPort } from '../ports/identity.ts';

/**
 * Setting a password after signing in with an email code (spec §8 'Invalid email or password!
 * Please login with OTP and set your password from Settings > Preferences'). People invited by
 * email or signed up by code have a random password nobody knows, so the password dialog cannot
 * ask them for the current one: for 15 minutes after a code sign-in, that session may set one
 * without it (rule: shared/auth/password.rules.ts `setPasswordWithoutCurrentUntil`). Every other
 * change goes through Cognito ChangePassword from the browser with the current password.
 */

/** What the password dialog needs: whether the current password can be left out, and until when (epoch ms). */
export interface PasswordStatus {
  set_without_current: boolean;
  until: number | null;
}

async function untilFor(claims: Claims, now: number): Promise<number | null> {
  const user = (await db().entities.user.get({ email: claims.email }).go({ consistent: true })).data;
  return setPasswordWithoutCurrentUntil(user?.otp_signed_in_at, claims.auth_time, now);
}

/** @param now epoch ms */
export async function passwordStatus(claims: Claims, now: number): Promise<PasswordStatus> {
  const until = await untilFor(claims, now);
  return { set_without_current: until !== null, until };
}

/**
 * Set the signed-in user's password without the current one.
 * @param raw the new password as typed (whitespace is stripped, spec §5)
 * @param now epoch ms
 * @throws AppError 400 validation (field `password`, the unmet rules in words); 403
 *   password.current_required when this session did not sign in by code in the last 15 minutes
 */
export async function setPasswordAfterOtp(claims: Claims, raw: string, now: number): Promise<void> {
  const problems = passwordProblems(raw);
  if (problems.length) {
    const words = PASSWORD_RULES.filter((r) => problems.includes(r.key)).map((r) => r.label.toLowerCase());
    throw new AppError('validation', `password: needs ${words.join(', ')}`, { status: 400, details: [{ field: 'password', reason: `needs ${words.join(', ')}` }] });
  }
  if ((await untilFor(claims, now)) === null) {
    throw new AppError('password.current_required', 'Enter your current password to change it (or sign in again with an email code to set a new one).', { status: 403 });
  }
  await identityPort().setPassword(claims.email, stripPassword(raw));
}
