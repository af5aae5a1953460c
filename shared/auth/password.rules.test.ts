import { describe, expect, it } from 'vitest';
import { checkPasswordChange, passwordProblems, stripPassword } from './password.rules.ts';

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
