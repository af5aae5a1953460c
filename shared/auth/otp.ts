import { createHash, timingSafeEqual } from 'node:crypto';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { log } from '../log.ts';
import { mailPort } from '../ports/mail.ts';
import {
  canRequestOtp,
  checkOtp,
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
 * Email one-time code use cases behind the Cognito custom auth triggers (functions/auth/*): send a
 * code, check an answer, and say whether the latest code can still be answered. State: one OtpCode
 * row per email (shared/auth/otp-code.entity.ts) holding only a hash of the code; the rules are in
 * otp.rules.ts. The clock is a parameter (epoch ms) so tests control time.
 */

const hashOf = (email: string, code: string) => createHash('sha256').update(`${email.toLowerCase()}:${code}`).digest('hex');

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));

const isConditionFailure = (e: unknown) =>
  (e as { cause?: { name?: string } }).cause?.name === 'ConditionalCheckFailedException' || /conditional/i.test(String((e as Error)?.message));

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
 * 60 s ago (spec §9). The row is written with a condition (no row, or the last one issued at least
 * 60 s ago), so two simultaneous requests cannot both send. When the mail cannot be sent the row is
 * removed again, so the person may retry at once.
 * @param appUrl the web app's address for the link in the mail ('' = no link)
 * @throws AppError 429 otp.too_soon with spec §8's 'Sorry! You can only request an OTP every 60 sec'
 */
export async function sendOtp(email: string, now: number, appUrl = ''): Promise<OtpSent> {
  const lower = email.toLowerCase();
  const tooSoon = () => new AppError('otp.too_soon', OTP_RESEND_MESSAGE, { status: 429 });
  const last = await stateOf(lower);
  if (!canRequestOtp(last, now).ok) throw tooSoon();
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

/** Whether the latest code of `email` can still be answered (DefineAuthChallenge after a wrong answer). */
export async function otpState(email: string, now: number): Promise<ReturnType<typeof otpLiveness>> {
  return otpLiveness(await stateOf(email.toLowerCase()), now);
}

/** The latest code's times, for a repeated challenge (no new code is sent). */
export async function currentOtp(email: string): Promise<OtpSent | null> {
  const s = await stateOf(email.toLowerCase());
  return s ? { email: email.toLowerCase(), expires_at: s.expires_at_ms, resend_at: s.issued_at + OTP_RESEND_MS } : null;
}

/**
 * Check an answer against the latest code of `email`. A right answer marks the code used (single
 * use, conditional on it still being unused); a wrong one on a live code counts an attempt.
 * @returns 'ok' only for a right answer to a live, unused code
 */
export async function verifyOtp(email: string, answer: string, now: number): Promise<OtpCheck> {
  const lower = email.toLowerCase();
  const state = await stateOf(lower);
  const given = normaliseOtpAnswer(answer);
  const result = checkOtp(state, !!state && /^\d+$/.test(given) && sameHash(state.code_hash, hashOf(lower, given)), now);
  if (result === 'wrong') {
    await db()
      .entities.otpCode.patch({ email: lower })
      .add({ attempts: 1 })
      .go()
      .catch(() => undefined);
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
  await db().entities.user.upsert({ email: lower, otp_signed_in_at: now }).go();
  return 'ok';
}
