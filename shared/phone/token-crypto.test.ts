import { describe, expect, it } from 'vitest';
import { decryptToken, encryptToken, generateTokenKey, parseTokenKey } from './token-crypto.ts';

describe('phone token crypto (AES-256-GCM)', () => {
  const key = generateTokenKey();
  const token = 'EAAG-test-token-with-ünïcode';

  it('round-trips and never contains the plain token', () => {
    const stored = encryptToken(token, key, '111');
    expect(stored.startsWith('v1.')).toBe(true);
    expect(stored).not.toContain(token);
    expect(decryptToken(stored, key, '111')).toBe(token);
  });

  it('uses a fresh IV each time', () => {
    expect(encryptToken(token, key, '111')).not.toBe(encryptToken(token, key, '111'));
  });

  it('detects tampering with the ciphertext or the tag', () => {
    const [v, iv, tag, ct] = encryptToken(token, key, '111').split('.');
    const flip = (s: string) => {
      const b = Buffer.from(s, 'base64url');
      b[0] ^= 1;
      return b.toString('base64url');
    };
    expect(() => decryptToken([v, iv, tag, flip(ct)].join('.'), key, '111')).toThrow();
    expect(() => decryptToken([v, iv, flip(tag), ct].join('.'), key, '111')).toThrow();
  });

  it('refuses another phone id, another key and malformed values', () => {
    const stored = encryptToken(token, key, '111');
    expect(() => decryptToken(stored, key, '222')).toThrow();
    expect(() => decryptToken(stored, generateTokenKey(), '111')).toThrow();
    expect(() => decryptToken('plain-token', key, '111')).toThrow(/format/);
  });

  it('requires a 32-byte key', () => {
    expect(() => parseTokenKey(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
    expect(parseTokenKey(key)).toHaveLength(32);
  });
});
