/**
 * Email one-time code (OTP) sign-in rules (spec §4 login, §7 'send an email one-time code', §8
 * messages, §9 'OTP can be requested once per 60 seconds'). Pure: the clock (`now`, epoch ms) and
 * the stored state are passed in; code generation uses Web Crypto (`globalThis.crypto`), present in
 * Node and browsers, so this file imports nothing.
 *
 * Choices (not in the spec, written down here): a code has 6 digits, lives 10 minutes
 * (`OTP_TTL_MS`, the same as the Cognito auth session of the web client), and allows 5 wrong
 * answers (`OTP_MAX_ATTEMPTS`) before it is dead; a code is single-use.
 */

/** spec §8 'OTP request error' fallback, and the server's refusal of a request within 60 s */
export const OTP_RESEND_MESSAGE = 'Sorry! You can only request an OTP every 60 sec';
/** spec §8 'OTP verification fails' */
export const OTP_INVALID_MESSAGE = 'OTP is expired or invalid! Please try again';

/** spec §9: a new code at most once per 60 s per email (ms) */
export const OTP_RESEND_MS = 60_000;
/** lifetime of a code (ms): 10 minutes */
export const OTP_TTL_MS = 10 * 60_000;
/** wrong answers a code survives; the next wrong one kills it */
export const OTP_MAX_ATTEMPTS = 5;
export const OTP_LENGTH = 6;

/** The stored state of an email's latest code (the OtpCode row), times in epoch ms. */
export interface OtpState {
  issued_at: number;
  expires_at_ms: number;
  /** wrong answers so far */
  attempts: number;
  /** set when the code was used to sign in (single use) */
  used_at?: number;
}

/**
 * A uniformly random code of `OTP_LENGTH` digits (rejection sampling over 32-bit values, so no
 * modulo bias).
 */
export function generateOtp(random: (buf: Uint32Array) => Uint32Array = (b) => globalThis.crypto.getRandomValues(b)): string {
  const max = 10 ** OTP_LENGTH;
  const limit = Math.floor(0x1_0000_0000 / max) * max;
  const buf = new Uint32Array(1);
  for (;;) {
    const v = random(buf)[0]!;
    if (v < limit) return String(v % max).padStart(OTP_LENGTH, '0');
  }
}

/**
 * May a new code be sent now? (spec §9: once per 60 s.) Allowed when there is no earlier code or
 * at least `OTP_RESEND_MS` have passed since it was issued (exactly 60 s later is allowed).
 * @returns ok, or the epoch ms from which a new code may be requested
 */
export function canRequestOtp(last: Pick<OtpState, 'issued_at'> | null | undefined, now: number): { ok: true } | { ok: false; retry_at: number } {
  if (!last) return { ok: true };
  const retry_at = last.issued_at + OTP_RESEND_MS;
  return now >= retry_at ? { ok: true } : { ok: false, retry_at };
}

/** The state of a freshly issued code. */
export function newOtpState(now: number): OtpState {
  return { issued_at: now, expires_at_ms: now + OTP_TTL_MS, attempts: 0 };
}

export type OtpCheck = 'ok' | 'missing' | 'expired' | 'used' | 'exhausted' | 'wrong';

/**
 * Can this code still be answered? A code is live until `expires_at_ms` (that instant is already
 * expired), while unused and while fewer than `OTP_MAX_ATTEMPTS` wrong answers were given.
 */
export function otpLiveness(state: OtpState | null | undefined, now: number): Exclude<OtpCheck, 'wrong'> {
  if (!state) return 'missing';
  if (state.used_at) return 'used';
  if (now >= state.expires_at_ms) return 'expired';
  if (state.attempts >= OTP_MAX_ATTEMPTS) return 'exhausted';
  return 'ok';
}

/**
 * Check an answer. `matches` says whether the answer equals the code (the caller compares hashes in
 * constant time); a live code with a wrong answer is 'wrong' (counts as an attempt).
 */
export function checkOtp(state: OtpState | null | undefined, matches: boolean, now: number): OtpCheck {
  const live = otpLiveness(state, now);
  if (live !== 'ok') return live;
  return matches ? 'ok' : 'wrong';
}

/** Normalise what a person typed: digits only (spaces and dashes from copy-paste are dropped). */
export function normaliseOtpAnswer(answer: string | undefined | null): string {
  return (answer ?? '').replace(/[\s-]/g, '');
}

/** One entry of the Cognito custom-auth session (DefineAuthChallenge's `request.session`). */
export interface ChallengeResult {
  challengeName: string;
  challengeResult: boolean;
}

export type NextAuthStep = { kind: 'challenge' } | { kind: 'tokens' } | { kind: 'fail' };

/**
 * DefineAuthChallenge's decision. First round: send a code (a CUSTOM_CHALLENGE). A right answer:
 * issue tokens. A wrong answer: another round while the code is still live (`live` = otpLiveness of
 * the stored code), else fail. Anything but our CUSTOM_CHALLENGE in the session (SRP, password)
 * fails: this flow signs in by code only.
 */
export function nextAuthStep(session: ChallengeResult[], live: Exclude<OtpCheck, 'wrong'>): NextAuthStep {
  if (session.length === 0) return { kind: 'challenge' };
  if (session.some((s) => s.challengeName !== 'CUSTOM_CHALLENGE')) return { kind: 'fail' };
  const last = session[session.length - 1]!;
  if (last.challengeResult) return { kind: 'tokens' };
  if (session.length >= OTP_MAX_ATTEMPTS) return { kind: 'fail' };
  return live === 'ok' ? { kind: 'challenge' } : { kind: 'fail' };
}
