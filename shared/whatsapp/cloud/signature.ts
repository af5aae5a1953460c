import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Check Meta's `X-Hub-Signature-256: sha256=<hex>` header: HMAC-SHA256 of the **raw** body bytes
 * keyed with the app secret (whatsapp-protocols.md A.3; Meta "Create webhook endpoint").
 * Never re-serialise the JSON: Meta signs the escaped-unicode bytes as sent.
 * @returns true only for a well-formed header whose digest matches; false for missing, SHA1-only,
 *   malformed or wrong signatures, and when no app secret is configured.
 */
export function verifySignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!appSecret || !header) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(match[1], 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Sign a body the way Meta does (used by the simulator, the benchmark and tests). */
export function signBody(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
