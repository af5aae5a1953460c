import { describe, expect, it } from 'vitest';
import { hasScope, parseToken, takeFromBucket } from './api-key.rules.ts';

describe('api key rules', () => {
  it('write includes read, not the other way', () => {
    expect(hasScope(['chats:write'], 'chats:read')).toBe(true);
    expect(hasScope(['chats:read'], 'chats:write')).toBe(false);
    expect(hasScope(['tickets:read'], 'chats:read')).toBe(false);
  });

  it('parses only well-formed tokens', () => {
    const id = '01JABCDEFGHJKMNPQRSTVWXYZ0';
    expect(parseToken(`chk_${id}_${'a'.repeat(43)}`)).toEqual({ key_id: id, secret: 'a'.repeat(43) });
    expect(parseToken(`chk_${id}_a_b-c${'x'.repeat(30)}`)?.secret).toBe(`a_b-c${'x'.repeat(30)}`);
    expect(parseToken('eyJhbGciOi.jwt.token')).toBeNull();
    expect(parseToken(`chk_short_${'a'.repeat(43)}`)).toBeNull();
    expect(parseToken(undefined)).toBeNull();
  });

  it('token bucket: a full bucket allows perMinute requests, then answers a retry time, and refills', () => {
    let b = null as Parameters<typeof takeFromBucket>[0];
    for (let i = 0; i < 3; i++) {
      const r = takeFromBucket(b, 3, 1000);
      expect(r.ok).toBe(true);
      if (r.ok) b = r.bucket;
    }
    const refused = takeFromBucket(b, 3, 1000);
    expect(refused).toEqual({ ok: false, retryAfterS: 20 });
    expect(takeFromBucket(b, 3, 21_000).ok).toBe(true);
  });
});
