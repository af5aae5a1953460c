/**
 * Email one-time code (OTP) sign-in rules (spec §4 login, §7 'send an email one-time code', §8
 * messages, §9 'OTP can be requested once per 60 seconds'). Pure: the clock (`now`, epoch ms) and
 * the stored state are passed in; code generation uses Web Crypto (`globalThis.crypto`), present in
 * Node and browsers, so this file imports nothing.
 *
 * Choices (not in the spec, written down here): a code has 6 digits, lives 10 minutes
 * (`OTP_TTL_MS`, the same as the Cognito auth session of the web client), and allows 5 wrong
 * answers (`OTP_MAX_ATTEMPTS`) before it is dead; a code is single-use. Beyond one code: throttles
 * per email and per client address, and a lockout after repeated wrong codes (`OTP_THROTTLES`,
 * `OTP_LOCKOUT` below).
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

/** `locked`: the email's code sign-in is locked after too many wrong codes ({@link OTP_LOCKOUT}) */
export type OtpCheck = 'ok' | 'missing' | 'expired' | 'used' | 'exhausted' | 'locked' | 'wrong';

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

/**
 * Throttles of email code sign-in (issue 11; not in the spec, chosen here): fixed windows counted
 * per key in the table (shared/auth/auth-throttle.entity.ts).
 * - prepare (`POST /api/auth/otp/prepare`, which creates users): per email and per client address;
 * - request (a code mailed, on top of spec §9's 60 s): per email;
 * - verify: wrong codes per email; {@link OTP_LOCKOUT} of them within the window lock the email's
 *   code sign-in for `lockMs`.
 * A person who mistypes a few times or asks again after a minute never meets them.
 */
export interface ThrottleLimit {
  /** events allowed within one window */
  max: number;
  /** window length, ms */
  windowMs: number;
}

const HOUR_MS = 60 * 60_000;

export const OTP_THROTTLES = {
  prepareEmail: { max: 10, windowMs: HOUR_MS },
  prepareAddress: { max: 50, windowMs: HOUR_MS },
  requestEmail: { max: 10, windowMs: HOUR_MS },
} as const satisfies Record<string, ThrottleLimit>;

/** 10 wrong codes within an hour lock the email's code sign-in for an hour. */
export const OTP_LOCKOUT = { max: 10, windowMs: HOUR_MS, lockMs: HOUR_MS } as const;

/** The stored counter of one key: events in the window that began at `window_start` (epoch ms). */
export interface ThrottleState {
  count: number;
  window_start: number;
  /** epoch ms until which the key is locked (lockouts only) */
  locked_until?: number;
}

export type ThrottleDecision = { ok: true; next: ThrottleState } | { ok: false; retry_at: number };

/**
 * Count one event against `limit` at `now` (epoch ms). A missing or ended window starts a new one
 * at `now`; an open window with `max` events already refuses until it ends (`retry_at`, epoch ms).
 * A lock (`locked_until` in the future) refuses until it ends.
 */
export function countEvent(state: ThrottleState | null | undefined, limit: ThrottleLimit, now: number): ThrottleDecision {
  if (state?.locked_until !== undefined && now < state.locked_until) return { ok: false, retry_at: state.locked_until };
  const open = !!state && now < state.window_start + limit.windowMs;
  if (!open) return { ok: true, next: { count: 1, window_start: now } };
  if (state.count >= limit.max) return { ok: false, retry_at: state.window_start + limit.windowMs };
  return { ok: true, next: { count: state.count + 1, window_start: state.window_start } };
}

/**
 * Count one wrong code (verify). The `OTP_LOCKOUT.max`-th wrong code within the window sets
 * `locked_until = now + lockMs` and starts a fresh window for after the lock.
 * @returns the next state and whether this failure locked the key
 */
export function countFailure(state: ThrottleState | null | undefined, now: number): { next: ThrottleState; locked: boolean } {
  if (state?.locked_until !== undefined && now < state.locked_until) return { next: state, locked: true };
  const open = !!state && now < state.window_start + OTP_LOCKOUT.windowMs;
  const count = open ? state.count + 1 : 1;
  const window_start = open ? state.window_start : now;
  if (count >= OTP_LOCKOUT.max) return { next: { count: 0, window_start: now, locked_until: now + OTP_LOCKOUT.lockMs }, locked: true };
  return { next: { count, window_start }, locked: false };
}

/** Is the key locked at `now`? @returns epoch ms the lock ends, or null */
export function lockedUntil(state: ThrottleState | null | undefined, now: number): number | null {
  return state?.locked_until !== undefined && now < state.locked_until ? state.locked_until : null;
}

/** When a throttle ends, in words: 'in 1 minute', 'in 42 minutes' (whole minutes, rounded up). */
export function inMinutes(retryAt: number, now: number): string {
  const m = Math.max(1, Math.ceil((retryAt - now) / 60_000));
  return `in ${m} minute${m === 1 ? '' : 's'}`;
}

/** The lockout, in plain words (shown on the sign-in page). */
export const otpLockedMessage = (retryAt: number, now: number): string =>
  `Too many wrong codes for this email. Signing in with an email code is locked for an hour; try again ${inMinutes(retryAt, now)}, or sign in with your password.`;

/** Too many requests from one email or address, in plain words. */
export const otpThrottledMessage = (retryAt: number, now: number): string => `Too many sign-in code requests. Please try again ${inMinutes(retryAt, now)}.`;
