import { randomBytes, randomInt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * Secrets of one local data dir, each generated on first start and kept in a file of the data dir
 * (mode 0600), like a deployment's secrets: nothing secret is shared by every checkout. Deleting
 * the file makes a new one at the next start (and invalidates what the old one protected).
 */

/**
 * The text of `<dataDir>/<name>`, created with `generate()` when missing or empty.
 * @returns the value and whether it was made just now
 */
export async function dataDirSecret(dataDir: string, name: string, generate: () => string | Promise<string>): Promise<{ value: string; created: boolean }> {
  const file = join(dataDir, name);
  const existing = (await readFile(file, 'utf8').catch(() => '')).trim();
  if (existing) return { value: existing, created: false };
  const value = await generate();
  // wx: two runtimes starting on one data dir at once keep the first one's value
  try {
    await writeFile(file, value, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
    return { value: (await readFile(file, 'utf8')).trim(), created: false };
  }
  return { value, created: true };
}

/** 32 random bytes, base64 (HMAC keys). */
export const randomKey = (): string => randomBytes(32).toString('base64');

/**
 * A password for the demo users that meets spec §5 (digit, upper and lower case, ≥ 6 characters)
 * and reads well when printed: `Chorus-`, three groups of four characters and two digits (~77 bits).
 */
export function generateDemoPassword(): string {
  // no 0/O, 1/l/I: the password is read off a terminal
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const group = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `Chorus-${group()}-${group()}-${group()}-${randomInt(10, 100)}`;
}

/** An RS256 key pair for the local ID tokens (`kid` names it in the JWKS). */
export interface TokenSigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** The data dir's token signing key (`<dataDir>/id-token-key.json`), generated on first start. */
export async function tokenSigningKey(dataDir: string): Promise<TokenSigningKey> {
  const { value } = await dataDirSecret(dataDir, 'id-token-key.json', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = `chorus-local-${randomBytes(6).toString('hex')}`;
    return JSON.stringify({ kid, jwk: await exportJWK(privateKey) });
  });
  const { kid, jwk } = JSON.parse(value) as { kid: string; jwk: JWK };
  const { kty, n, e } = jwk;
  return { kid, privateJwk: jwk, publicJwk: { kty, n, e, kid, alg: 'RS256', use: 'sig' } };
}
