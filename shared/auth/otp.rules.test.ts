import { describe, expect, it } from 'vitest';
import {
  canRequestOtp,
  checkOtp,
  generateOtp,
  newOtpState,
  nextAuthStep,
  normaliseOtpAnswer,
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_MS,
  OTP_TTL_MS,
  otpLiveness,
  countEvent,
  countFailure,
  inMinutes,
  lockedUntil,
  OTP_LOCKOUT,
  OTP_THROTTLES,
  otpLockedMessage,
} from './otp.rules.ts';

const T0 = 1_763_800_000_000;

describe('generateOtp', () => {
  it('gives 6 digits, zero-padded', () => {
    expect(generateOtp((b) => ((b[0] = 42), b))).toBe('000042');
    for (let i = 0; i < 200; i++) expect(generateOtp()).toMatch(new RegExp(`^\\d{${OTP_LENGTH}}$`));
  });

  it('rejects values past the last whole block of 10^6 (no modulo bias)', () => {
    const values = [0xffff_ffff, 0xffff_fff0, 7];
    let i = 0;
    expect(generateOtp((b) => ((b[0] = values[i++]!), b))).toBe('000007');
    expect(i).toBe(3);
  });
});

describe('canRequestOtp (spec §9: once per 60 s)', () => {
  it('allows the first request', () => {
    expect(canRequestOtp(null, T0)).toEqual({ ok: true });
  });

  it('refuses 1 ms before 60 s, allows at exactly 60 s', () => {
    const last = { issued_at: T0 };
    expect(canRequestOtp(last, T0 + OTP_RESEND_MS - 1)).toEqual({ ok: false, retry_at: T0 + 60_000 });
    expect(canRequestOtp(last, T0 + OTP_RESEND_MS)).toEqual({ ok: true });
    expect(canRequestOtp(last, T0)).toEqual({ ok: false, retry_at: T0 + 60_000 });
  });
});

describe('code expiry and attempts', () => {
  const state = newOtpState(T0);

  it('a code lives 10 minutes: live 1 ms before, expired at the instant', () => {
    expect(state.expires_at_ms - state.issued_at).toBe(OTP_TTL_MS);
    expect(OTP_TTL_MS).toBe(600_000);
    expect(checkOtp(state, true, T0 + OTP_TTL_MS - 1)).toBe('ok');
    expect(checkOtp(state, true, T0 + OTP_TTL_MS)).toBe('expired');
    expect(checkOtp(state, false, T0 + OTP_TTL_MS)).toBe('expired');
  });

  it('a wrong answer to a live code is wrong; no code is missing', () => {
    expect(checkOtp(state, false, T0 + 1)).toBe('wrong');
    expect(checkOtp(null, true, T0)).toBe('missing');
  });

  it(`allows ${OTP_MAX_ATTEMPTS} wrong answers, then the code is dead even for the right one`, () => {
    expect(checkOtp({ ...state, attempts: OTP_MAX_ATTEMPTS - 1 }, true, T0 + 1)).toBe('ok');
    expect(checkOtp({ ...state, attempts: OTP_MAX_ATTEMPTS }, true, T0 + 1)).toBe('exhausted');
  });

  it('a used code never works again', () => {
    expect(checkOtp({ ...state, used_at: T0 + 5 }, true, T0 + 10)).toBe('used');
    expect(otpLiveness({ ...state, used_at: T0 + 5 }, T0 + 10)).toBe('used');
  });

  it('normalises pasted answers', () => {
    expect(normaliseOtpAnswer(' 123 456 ')).toBe('123456');
    expect(normaliseOtpAnswer('123-456')).toBe('123456');
    expect(normaliseOtpAnswer(undefined)).toBe('');
  });
});

describe('nextAuthStep (DefineAuthChallenge)', () => {
  const wrong = { challengeName: 'CUSTOM_CHALLENGE', challengeResult: false };
  const right = { challengeName: 'CUSTOM_CHALLENGE', challengeResult: true };

  it('starts with a code challenge and issues tokens after a right answer', () => {
    expect(nextAuthStep([], 'ok')).toEqual({ kind: 'challenge' });
    expect(nextAuthStep([wrong, right], 'ok')).toEqual({ kind: 'tokens' });
  });

  it('gives another round after a wrong answer while the code is live, else fails', () => {
    expect(nextAuthStep([wrong], 'ok')).toEqual({ kind: 'challenge' });
    expect(nextAuthStep([wrong], 'expired')).toEqual({ kind: 'fail' });
    expect(nextAuthStep([wrong], 'exhausted')).toEqual({ kind: 'fail' });
    expect(nextAuthStep([wrong], 'missing')).toEqual({ kind: 'fail' });
    expect(nextAuthStep([wrong], 'locked')).toEqual({ kind: 'fail' });
  });

  it(`fails after ${OTP_MAX_ATTEMPTS} wrong answers in one session`, () => {
    expect(nextAuthStep(Array(OTP_MAX_ATTEMPTS - 1).fill(wrong), 'ok')).toEqual({ kind: 'challenge' });
    expect(nextAuthStep(Array(OTP_MAX_ATTEMPTS).fill(wrong), 'ok')).toEqual({ kind: 'fail' });
  });

  it('refuses any other challenge in the session (password, SRP)', () => {
    expect(nextAuthStep([{ challengeName: 'PASSWORD_VERIFIER', challengeResult: true }], 'ok')).toEqual({ kind: 'fail' });
    expect(nextAuthStep([{ challengeName: 'SRP_A', challengeResult: true }, right], 'ok')).toEqual({ kind: 'fail' });
  });
});

describe('countEvent (throttle windows)', () => {
  const limit = { max: 3, windowMs: 60_000 };

  it('starts a window at the first event and counts within it', () => {
    const a = countEvent(null, limit, T0);
    expect(a).toEqual({ ok: true, next: { count: 1, window_start: T0 } });
    const b = countEvent({ count: 1, window_start: T0 }, limit, T0 + 10);
    expect(b).toEqual({ ok: true, next: { count: 2, window_start: T0 } });
  });

  it('refuses the event past max until the window ends, then starts a new one', () => {
    const full = { count: 3, window_start: T0 };
    expect(countEvent(full, limit, T0 + 59_999)).toEqual({ ok: false, retry_at: T0 + 60_000 });
    expect(countEvent(full, limit, T0 + 60_000)).toEqual({ ok: true, next: { count: 1, window_start: T0 + 60_000 } });
  });

  it('refuses while locked, whatever the count', () => {
    expect(countEvent({ count: 0, window_start: T0, locked_until: T0 + 5 }, limit, T0 + 4)).toEqual({ ok: false, retry_at: T0 + 5 });
    expect(countEvent({ count: 0, window_start: T0, locked_until: T0 + 5 }, limit, T0 + 5).ok).toBe(true);
  });

  it('limits are generous for people and finite for scripts', () => {
    for (const l of Object.values(OTP_THROTTLES)) {
      expect(l.max).toBeGreaterThanOrEqual(5);
      expect(l.windowMs).toBe(3_600_000);
    }
  });
});

describe(`countFailure (lockout: ${OTP_LOCKOUT.max} wrong codes in an hour lock for an hour)`, () => {
  it(`locks at the ${OTP_LOCKOUT.max}th failure within the window, not before`, () => {
    let state = null as ReturnType<typeof countFailure>['next'] | null;
    for (let i = 1; i < OTP_LOCKOUT.max; i++) {
      const r = countFailure(state, T0 + i * 1000);
      expect(r.locked, `failure ${i}`).toBe(false);
      state = r.next;
    }
    expect(state).toEqual({ count: OTP_LOCKOUT.max - 1, window_start: T0 + 1000 });
    const at = T0 + 100_000;
    const last = countFailure(state, at);
    expect(last.locked).toBe(true);
    expect(last.next.locked_until).toBe(at + OTP_LOCKOUT.lockMs);
    expect(lockedUntil(last.next, at + OTP_LOCKOUT.lockMs - 1)).toBe(at + OTP_LOCKOUT.lockMs);
    expect(lockedUntil(last.next, at + OTP_LOCKOUT.lockMs)).toBeNull();
  });

  it('failures spread over more than the window never lock', () => {
    let state = null as ReturnType<typeof countFailure>['next'] | null;
    for (let i = 0; i < 30; i++) {
      const r = countFailure(state, T0 + i * (OTP_LOCKOUT.windowMs / 5));
      expect(r.locked).toBe(false);
      state = r.next;
    }
  });

  it('while locked a failure changes nothing; after the lock counting starts again', () => {
    const locked = { count: 0, window_start: T0, locked_until: T0 + OTP_LOCKOUT.lockMs };
    expect(countFailure(locked, T0 + 1)).toEqual({ next: locked, locked: true });
    expect(countFailure(locked, T0 + OTP_LOCKOUT.lockMs)).toEqual({ next: { count: 1, window_start: T0 + OTP_LOCKOUT.lockMs }, locked: false });
  });

  it('says it in plain words, with whole minutes', () => {
    expect(inMinutes(T0 + 1, T0)).toBe('in 1 minute');
    expect(inMinutes(T0 + 59 * 60_000 + 1, T0)).toBe('in 60 minutes');
    expect(otpLockedMessage(T0 + OTP_LOCKOUT.lockMs, T0)).toBe(
      'Too many wrong codes for this email. Signing in with an email code is locked for an hour; try again in 60 minutes, or sign in with your password.',
    );
  });
});
