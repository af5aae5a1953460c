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
