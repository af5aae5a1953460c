import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { resetConfig } from '../config.ts';
import { verifyIdToken } from './jwt.ts';

/** verifyIdToken with its verified-token cache: a cached token is still refused once expired, and a token from another key never passes. */
const ISSUER = 'https://cognito.test/pool';
let sign: (claims: Record<string, unknown>, expS: number, key?: CryptoKey) => Promise<string>;
let otherKey: CryptoKey;

beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  otherKey = (await generateKeyPair('RS256')).privateKey as CryptoKey;
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  vi.stubEnv('COGNITO_ISSUER', ISSUER);
  vi.stubEnv('COGNITO_JWKS', JSON.stringify({ keys: [jwk] }));
  vi.stubEnv('COGNITO_CLIENT_ID', 'client1');
  resetConfig();
  sign = (claims, expS, key = privateKey as CryptoKey) =>
    new SignJWT({ token_use: 'id', email_verified: true, ...claims }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(ISSUER).setAudience('client1').setIssuedAt().setExpirationTime(expS).sign(key);
});
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetConfig();
});

describe('verifyIdToken', () => {
  it('accepts a valid token twice (the second from the cache), then refuses it once it has expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await sign({ sub: 'u1', email: 'Ann@Example.com' }, now + 60);
    expect(await verifyIdToken(token)).toMatchObject({ sub: 'u1', email: 'ann@example.com' });
    expect(await verifyIdToken(token)).toMatchObject({ sub: 'u1', email: 'ann@example.com' });
    vi.useFakeTimers({ now: (now + 61) * 1000 });
    await expect(verifyIdToken(token)).rejects.toMatchObject({ status: 401, message: 'Session expired! Please login again' });
    vi.useRealTimers();
  });
  it('refuses a token signed by another key, a tampered token and a missing one', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifyIdToken(await sign({ sub: 'u2', email: 'b@x.co' }, now + 60, otherKey))).rejects.toMatchObject({ status: 401 });
    const good = await sign({ sub: 'u3', email: 'c@x.co' }, now + 60);
    await verifyIdToken(good);
    const [h, , s] = good.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'u3', email: 'admin@x.co', token_use: 'id', email_verified: true, iss: ISSUER, aud: 'client1', exp: now + 60 })).toString('base64url')}.${s}`;
    await expect(verifyIdToken(forged)).rejects.toMatchObject({ status: 401 });
    await expect(verifyIdToken(undefined)).rejects.toMatchObject({ status: 401 });
  });
});
