/**
 * Password rules of spec §5 (browser-safe, pure): whitespace stripped, at least 6 characters, at
 * least one digit, one upper-case and one lower-case letter. The Update button of the password
 * dialog stays disabled until {@link passwordProblems} is empty; spec §8 gives the messages.
 */

/** Spec §5: minimum length after whitespace is stripped. */
export const PASSWORD_MIN_LENGTH = 6;

/** Spec §8 wording, verbatim. */
export const PASSWORD_MESSAGES = {
  same_password: 'New password cannot be the same as the old password',
  updated: 'Password updated successfully',
  failed: 'Failed to update password',
} as const;

/** One unmet rule: a stable key and words for the dialog's checklist. */
export interface PasswordRule {
  key: 'length' | 'digit' | 'upper' | 'lower';
  label: string;
  test: (p: string) => boolean;
}

/** The rules in the order the dialog lists them. */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  { key: 'length', label: `At least ${PASSWORD_MIN_LENGTH} characters`, test: (p) => p.length >= PASSWORD_MIN_LENGTH },
  { key: 'digit', label: 'At least one digit', test: (p) => /\d/.test(p) },
  { key: 'upper', label: 'At least one upper case letter', test: (p) => /\p{Lu}/u.test(p) },
  { key: 'lower', label: 'At least one lower case letter', test: (p) => /\p{Ll}/u.test(p) },
];

/** Spec §5: every whitespace character is removed (not only at the ends). */
export const stripPassword = (raw: string): string => raw.replace(/\s+/g, '');

/** The rules `raw` (before stripping) does not meet yet; empty when the password is acceptable. */
export function passwordProblems(raw: string): PasswordRule['key'][] {
  const p = stripPassword(raw);
  return PASSWORD_RULES.filter((r) => !r.test(p)).map((r) => r.key);
}

/**
 * Can the dialog send this change? `ok: false` with `same_password` when the stripped new password
 * equals the old one (spec §8), or with the unmet rules.
 */
export function checkPasswordChange(
  oldPassword: string,
  newPassword: string,
): { ok: true; password: string } | { ok: false; reason: 'same_password' | 'weak' | 'missing_old'; problems: PasswordRule['key'][] } {
  const problems = passwordProblems(newPassword);
  if (!oldPassword) return { ok: false, reason: 'missing_old', problems };
  if (problems.length) return { ok: false, reason: 'weak', problems };
  const password = stripPassword(newPassword);
  if (password === oldPassword || password === stripPassword(oldPassword)) return { ok: false, reason: 'same_password', problems: [] };
  return { ok: true, password };
}

/**
 * How long after signing in with an email code a person may set a password without giving the
 * current one (spec §8: 'Please login with OTP and set your password from Settings > Preferences'),
 * ms. The code proved they own the email; past this window the current password is asked for.
 */
export const SET_PASSWORD_AFTER_OTP_MS = 15 * 60_000;

/**
 * How far the session's sign-in time (token auth_time, whole seconds) may be from the moment the
 * code was answered for it to be that sign-in, ms: tokens are issued right after the answer.
 */
const SAME_SIGN_IN_SLACK_MS = 10_000;

/**
 * May this session set a password without the current one? Only the session a code sign-in opened
 * (its token's auth_time within 10 seconds of the code being answered), and only for 15 minutes.
 * @param otpSignedInAtMs epoch ms the user last answered an email code right (undefined: never)
 * @param authTimeS the session token's auth_time, epoch **s** (undefined: unknown → no)
 * @param nowMs epoch ms
 * @returns epoch ms until which it may, or null
 */
export function setPasswordWithoutCurrentUntil(otpSignedInAtMs: number | undefined, authTimeS: number | undefined, nowMs: number): number | null {
  if (otpSignedInAtMs === undefined || authTimeS === undefined) return null;
  if (Math.abs(authTimeS * 1000 - otpSignedInAtMs) > SAME_SIGN_IN_SLACK_MS) return null;
  const until = otpSignedInAtMs + SET_PASSWORD_AFTER_OTP_MS;
  return nowMs <= until ? until : null;
}
