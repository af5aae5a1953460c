import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of a phone's Cloud API access token: AES-256-GCM (NIST SP 800-38D) with a
 * 32-byte key from config (`PHONE_TOKEN_KEY`, base64), a random 96-bit IV per token and a 128-bit
 * tag. The phone_number_id is bound as additional authenticated data, so a ciphertext copied onto
 * another phone's row does not decrypt. Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key bytes of a base64 key. @throws Error when it is not 32 bytes */
export function parseTokenKey(keyB64: string): Buffer {
  const key = Buffer.from(keyB64, 'base64');
  if (key.length !== 32) throw new Error(`PHONE_TOKEN_KEY must be 32 bytes, base64-encoded (got ${key.length} bytes)`);
  return key;
}

/** A fresh random key, base64 (the local runtime generates one into its data dir). */
export function generateTokenKey(): string {
  return randomBytes(32).toString('base64');
}

/** Encrypt `token` for the phone `phoneId` (bound as AAD). */
export function encryptToken(token: string, keyB64: string, phoneId: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', parseTokenKey(keyB64), iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(phoneId, 'utf8'));
  const ct = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/**
 * Decrypt a value from `encryptToken` for the same phone.
 * @throws Error when the value is malformed, was tampered with, belongs to another phone or the key is wrong
 */
export function decryptToken(stored: string, keyB64: string, phoneId: string): string {
  const [version, iv, tag, ct] = stored.split('.');
  if (version !== VERSION || !iv || !tag || ct === undefined) throw new Error('unrecognised encrypted token format');
  const decipher = createDecipheriv('aes-256-gcm', parseTokenKey(keyB64), Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(phoneId, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
