import { describe, expect, it } from 'vitest';
import { checkPasswordChange, passwordProblems, SET_PASSWORD_AFTER_OTP_MS, setPasswordWithoutCurrentUntil, stripPassword } from './password.rules.ts';

describe('password rules (spec §5)', () => {
  it.each([
    ['Abc123', []],
    ['abc123', ['upper']],
    ['ABC123', ['lower']],
    ['Abcdef', ['digit']],
    ['Ab1', ['length']],
    ['', ['length', 'digit', 'upper', 'lower']],
    // whitespace is stripped before the length is counted
    ['A b 1 c', ['length']],
    ['  Ab 12 cd ', []],
  ])('%j misses %j', (raw, missing) => {
    // Act / Assert
    expect(passwordProblems(raw)).toEqual(missing);
  });

  it('strips every whitespace character', () => {
    expect(stripPassword(' Ab\t1 c\n2 ')).toBe('Ab1c2');
  });

  it('refuses the old password as the new one (same_password), also with added spaces', () => {
    expect(checkPasswordChange('Secret123', 'Secret123')).toMatchObject({ ok: false, reason: 'same_password' });
    expect(checkPasswordChange('Secret123', ' Secret 123 ')).toMatchObject({ ok: false, reason: 'same_password' });
  });

  it('needs the old password and a valid new one; returns the stripped new one', () => {
    expect(checkPasswordChange('', 'Abc123')).toMatchObject({ ok: false, reason: 'missing_old' });
    expect(checkPasswordChange('Old12345', 'abcdef')).toEqual({ ok: false, reason: 'weak', problems: ['digit', 'upper'] });
    expect(checkPasswordChange('Old12345', ' New 1234a ')).toEqual({ ok: true, password: 'New1234a' });
  });
});

describe('setPasswordWithoutCurrentUntil (15 minutes after a code sign-in, that session only)', () => {
  const signedIn = 1_700_000_000_000;
  const authTimeS = signedIn / 1000;
  it.each([
    ['just after the code', signedIn, authTimeS, signedIn + 1000, signedIn + SET_PASSWORD_AFTER_OTP_MS],
    ['at 15:00', signedIn, authTimeS, signedIn + SET_PASSWORD_AFTER_OTP_MS, signedIn + SET_PASSWORD_AFTER_OTP_MS],
    ['at 15:01', signedIn, authTimeS, signedIn + SET_PASSWORD_AFTER_OTP_MS + 1000, null],
    ['never signed in by code', undefined, authTimeS, signedIn, null],
    ['token without auth_time', signedIn, undefined, signedIn, null],
    ['another sign-in (password, 5 minutes later)', signedIn, authTimeS + 300, signedIn + 301_000, null],
    ['token time 5 s off (same sign-in, whole seconds)', signedIn, authTimeS + 5, signedIn + 6_000, signedIn + SET_PASSWORD_AFTER_OTP_MS],
    ['another sign-in 11 s later', signedIn, authTimeS + 11, signedIn + 12_000, null],
  ])('%s', (_name, otpAt, authTime, now, expected) => {
    expect(setPasswordWithoutCurrentUntil(otpAt, authTime, now)).toBe(expected);
  });
});
