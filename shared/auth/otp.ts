import { createHmac, timingSafeEqual } from 'node:crypto';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { log } from '../log.ts';
import { mailPort } from '../ports/mail.ts';
import { identityPort } from '../ports/identity.ts';
import { config } from '../config.ts';
import {
  canRequestOtp,
  checkOtp,
  countEvent,
  countFailure,
  lockedUntil,
  OTP_THROTTLES,
  OTP_LOCKOUT,
  otpLockedMessage,
  otpThrottledMessage,
  type ThrottleLimit,
  type ThrottleState,
  generateOtp,
  newOtpState,
  normaliseOtpAnswer,
  OTP_RESEND_MESSAGE,
  OTP_RESEND_MS,
  OTP_TTL_MS,
  otpLiveness,
  type OtpCheck,
  type OtpState,
} from './otp.rules.ts';

/**
 * Email one-time code use cases behind the Cognito custom auth triggers (functions/auth/*) and
 * `POST /api/auth/otp/prepare`: prepare (create the user), send a code, check an answer, and say
 * whether the latest code can still be answered. State: one OtpCode row per email
 * (shared/auth/otp-code.entity.ts) holding only an HMAC of the code, and throttle counters
 * (shared/auth/auth-throttle.entity.ts); the rules are in otp.rules.ts. The clock is a parameter
 * (epoch ms) so tests control time.
 */

/**
 * HMAC-SHA-256 of email and code under the server key OTP_HMAC_KEY (AWS: a Secrets Manager secret
 * of the auth stack; locally generated once per data dir): a leaked table row does not give the
 * code away by hashing all 10^6 candidates.
 * @throws AppError 503 otp.not_configured without a key
 */
function hashOf(email: string, code: string): string {
  const key = config().OTP_HMAC_KEY;
  if (!key) throw new AppError('otp.not_configured', 'Sign-in by email code is not set up on this server.', { status: 503 });
  return createHmac('sha256', key).update(`${email.toLowerCase()}:${code}`).digest('hex');
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

const isConditionFailure = (e: unknown) =>
  (e as { cause?: { name?: string } }).cause?.name === 'ConditionalCheckFailedException' || /conditional/i.test(String((e as Error)?.message));

async function readThrottle(key: string): Promise<ThrottleState | null> {
  const row = (await db().entities.authThrottle.get({ key }).go({ consistent: true })).data;
  return row ? { count: row.count, window_start: row.window_start, ...(row.locked_until !== undefined ? { locked_until: row.locked_until } : {}) } : null;
}

/**
 * Write `next` over `prev` (read a moment ago), only if the row is still `prev`.
 * @returns false when another request changed it first (the caller reads again)
 */
async function writeThrottle(key: string, prev: ThrottleState | null, next: ThrottleState, windowMs: number): Promise<boolean> {
  const ends = Math.max(next.window_start + windowMs, next.locked_until ?? 0);
  try {
    await db()
      .entities.authThrottle.put({ key, ...next, expires_at: Math.ceil(ends / 1000) + 60 })
      .where((a, op) => (prev ? `${op.eq(a.count, prev.count)} AND ${op.eq(a.window_start, prev.window_start)}` : op.notExists(a.count)))
      .go();
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}

/** Count one event of `key` against `limit`; a few rounds when requests race for the row. */
async function take(key: string, limit: ThrottleLimit, now: number): Promise<{ ok: true } | { ok: false; retry_at: number }> {
  for (let round = 0; round < 5; round++) {
    const prev = await readThrottle(key);
    const d = countEvent(prev, limit, now);
    if (!d.ok) return d;
    if (await writeThrottle(key, prev, d.next, limit.windowMs)) return { ok: true };
  }
  // still contended after five rounds: a burst on one key, refuse rather than let it through
  return { ok: false, retry_at: now + 1000 };
}

const failKey = (email: string) => `verify-fail#${email}`;

/** Count a wrong code of `email`. @returns true when this locked the email's code sign-in */
async function recordFailure(email: string, now: number): Promise<boolean> {
  for (let round = 0; round < 5; round++) {
    const prev = await readThrottle(failKey(email));
    const { next, locked } = countFailure(prev, now);
    if (next === prev) return locked;
    if (await writeThrottle(failKey(email), prev, next, OTP_LOCKOUT.windowMs)) return locked;
  }
  return false;
}

/** Epoch ms until which `email`'s code sign-in is locked, or null. */
export async function otpLockedUntil(email: string, now: number): Promise<number | null> {
  return lockedUntil(await readThrottle(failKey(email.toLowerCase())), now);
}

const throttled = (retryAt: number, now: number) =>
  new AppError('otp.throttled', otpThrottledMessage(retryAt, now), { status: 429, details: [{ field: 'email', reason: otpThrottledMessage(retryAt, now) }] });

/**
 * `POST /api/auth/otp/prepare`: make sure `email` has a user in the pool (created confirmed, with a
 * password nobody knows), so the custom auth flow can send a code. Throttled per client address and
 * per email (otp.rules.ts OTP_THROTTLES), since it creates users for any address.
 * @param address the client's IP address (API Gateway's sourceIp); '' = unknown, not counted
 * @throws AppError 429 otp.throttled (details: the email field, with when to try again)
 */
export async function prepareOtp(email: string, address: string, now: number): Promise<void> {
  const lower = email.toLowerCase();
  if (address) {
    const byAddress = await take(`prepare-address#${address}`, OTP_THROTTLES.prepareAddress, now);
    if (!byAddress.ok) throw throttled(byAddress.retry_at, now);
  }
  const byEmail = await take(`prepare-email#${lower}`, OTP_THROTTLES.prepareEmail, now);
  if (!byEmail.ok) throw throttled(byEmail.retry_at, now);
  await identityPort().ensureUser(lower);
}

async function stateOf(email: string): Promise<(OtpState & { code_hash: string }) | null> {
  const row = (await db().entities.otpCode.get({ email }).go({ consistent: true })).data;
  return row ? { issued_at: row.issued_at, expires_at_ms: row.expires_at_ms, attempts: row.attempts ?? 0, used_at: row.used_at, code_hash: row.code_hash } : null;
}

/** What the client may show after a code was sent: epoch ms of expiry and of the next allowed request. */
export interface OtpSent {
  email: string;
  expires_at: number;
  resend_at: number;
}

/**
 * Send a new code to `email` (spec §7 'send an email one-time code'), unless one was sent less than
 * 60 s ago (spec §9), the email sent too many within the hour (OTP_THROTTLES.requestEmail) or its
 * code sign-in is locked after repeated wrong codes (OTP_LOCKOUT). The row is written with a
 * condition (no row, or the last one issued at least 60 s ago), so two simultaneous requests cannot
 * both send. When the mail cannot be sent the row is removed again, so the person may retry at once.
 * @param appUrl the web app's address for the link in the mail ('' = no link)
 * @throws AppError 429 otp.too_soon with spec §8's 'Sorry! You can only request an OTP every 60 sec';
 *   429 otp.throttled; 429 otp.locked (words: otp.rules.ts otpLockedMessage)
 */
export async function sendOtp(email: string, now: number, appUrl = ''): Promise<OtpSent> {
  const lower = email.toLowerCase();
  const tooSoon = () => new AppError('otp.too_soon', OTP_RESEND_MESSAGE, { status: 429 });
  const locked = await otpLockedUntil(lower, now);
  if (locked !== null) throw new AppError('otp.locked', otpLockedMessage(locked, now), { status: 429 });
  const last = await stateOf(lower);
  if (!canRequestOtp(last, now).ok) throw tooSoon();
  const budget = await take(`request-email#${lower}`, OTP_THROTTLES.requestEmail, now);
  if (!budget.ok) throw new AppError('otp.throttled', otpThrottledMessage(budget.retry_at, now), { status: 429 });
  const code = generateOtp();
  const state = newOtpState(now);
  try {
    await db()
      .entities.otpCode.put({ email: lower, code_hash: hashOf(lower, code), ...state, expires_at: Math.ceil(state.expires_at_ms / 1000) + 60 })
      .where((a, op) => `${op.notExists(a.issued_at)} OR ${op.lte(a.issued_at, now - OTP_RESEND_MS)}`)
      .go();
  } catch (e) {
    if (isConditionFailure(e)) throw tooSoon();
    throw e;
  }
  const minutes = Math.round(OTP_TTL_MS / 60_000);
  try {
    await (await mailPort()).send({
      to: lower,
      kind: 'otp',
      subject: `${code} is your Chorus sign-in code`,
      text: [
        `Your Chorus sign-in code is ${code}`,
        '',
        `Enter it on the sign-in page within ${minutes} minutes${appUrl ? ` (${appUrl}/login)` : ''}. It works once.`,
        'If you did not ask to sign in, ignore this email: nobody can sign in without the code.',
      ].join('\n'),
    });
  } catch (e) {
    await db().entities.otpCode.delete({ email: lower }).go().catch(() => undefined);
    log('error', 'otp.mail_failed', { error: String(e) });
    throw new AppError('otp.mail_failed', 'We could not send the code. Please try again.', { status: 502 });
  }
  return { email: lower, expires_at: state.expires_at_ms, resend_at: now + OTP_RESEND_MS };
}

/** Whether the latest code of `email` can still be answered (DefineAuthChallenge after a wrong answer); 'locked' after too many wrong codes. */
export async function otpState(email: string, now: number): Promise<ReturnType<typeof otpLiveness> | 'locked'> {
  if ((await otpLockedUntil(email, now)) !== null) return 'locked';
  return otpLiveness(await stateOf(email.toLowerCase()), now);
}

/** The latest code's times, for a repeated challenge (no new code is sent). */
export async function currentOtp(email: string): Promise<OtpSent | null> {
  const s = await stateOf(email.toLowerCase());
  return s ? { email: email.toLowerCase(), expires_at: s.expires_at_ms, resend_at: s.issued_at + OTP_RESEND_MS } : null;
}

/**
 * Check an answer against the latest code of `email`. A right answer marks the code used (single
 * use, conditional on it still being unused); a wrong one on a live code counts an attempt on the
 * code and a failure of the email (OTP_LOCKOUT: the 10th within an hour locks code sign-in for an
 * hour). While locked every answer is refused, the right one too.
 * @returns 'ok' only for a right answer to a live, unused code of an unlocked email
 */
export async function verifyOtp(email: string, answer: string, now: number): Promise<OtpCheck> {
  const lower = email.toLowerCase();
  if ((await otpLockedUntil(lower, now)) !== null) return 'locked';
  const state = await stateOf(lower);
  const given = normaliseOtpAnswer(answer);
  const result = checkOtp(state, !!state && /^\d+$/.test(given) && sameHash(state.code_hash, hashOf(lower, given)), now);
  if (result === 'wrong') {
    await db()
      .entities.otpCode.patch({ email: lower })
      .add({ attempts: 1 })
      .go()
      .catch(() => undefined);
    const locked = await recordFailure(lower, now);
    if (locked) log('warn', 'otp.locked', { until: now + OTP_LOCKOUT.lockMs });
    return result;
  }
  if (result !== 'ok') return result;
  try {
    await db()
      .entities.otpCode.patch({ email: lower })
      .set({ used_at: now })
      .where((a, op) => `${op.notExists(a.used_at)} AND ${op.eq(a.code_hash, state!.code_hash)}`)
      .go();
  } catch (e) {
    if (isConditionFailure(e)) return 'used';
    throw e;
  }
  // lets this sign-in set a password without the current one for a while (shared/auth/password.rules.ts)
  // UpdateItem: sets this one field, the row's other fields (sub, flags, preferences) stay
  await db().entities.user.update({ email: lower }).set({ otp_signed_in_at: now }).go();
  return 'ok';
}
