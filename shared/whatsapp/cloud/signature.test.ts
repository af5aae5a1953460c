import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signBody, verifySignature } from './signature.ts';

const secret = 'app-secret';

describe('verifySignature (X-Hub-Signature-256 over the raw body)', () => {
  it('accepts the HMAC-SHA256 of the exact bytes', () => {
    const raw = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
    expect(verifySignature(raw, signBody(raw, secret), secret)).toBe(true);
  });

  it('verifies escaped unicode as sent, and fails once re-serialised (raw-byte hashing)', () => {
    const raw = Buffer.from('{"text":{"body":"\\u00e4\\u00f6\\u00e5 \\ud83d\\udc4d"}}');
    const header = signBody(raw, secret);
    expect(verifySignature(raw, header, secret)).toBe(true);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString())));
    expect(verifySignature(reserialised, header, secret)).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['sha1 only', `sha1=${createHmac('sha1', secret).update('x').digest('hex')}`],
    ['malformed hex', 'sha256=zz'],
    ['wrong secret', signBody('{}', 'other-secret')],
    ['truncated', signBody('{}', secret).slice(0, 40)],
  ])('rejects a %s signature', (_name, header) => {
    expect(verifySignature(Buffer.from('{}'), header, secret)).toBe(false);
  });

  it('rejects everything when no app secret is configured', () => {
    expect(verifySignature(Buffer.from('{}'), signBody('{}', ''), '')).toBe(false);
  });
});
