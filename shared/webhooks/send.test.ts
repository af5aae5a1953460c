import { describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { Webhook } from 'standardwebhooks';
import { ForbiddenAddressError, guardedLookup, signedHeaders } from './send.ts';

/** The send-time half of the SSRF guard (after DNS resolution) and the signature headers. */
const fakeDns = (answer: LookupAddress[]) => (_h: string, _o: unknown, cb: (e: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) => cb(null, answer);
const lookupWith = (answer: LookupAddress[], allowLoopback = false) =>
  new Promise<{ err: Error | null; address: unknown; family?: number }>((res) => guardedLookup({ allowLoopback }, fakeDns(answer))('hooks.example.com', {}, (err, address, family) => res({ err, address, family })));

describe('send-time SSRF guard', () => {
  it('connects to the checked public address', async () => {
    const r = await lookupWith([{ address: '93.184.216.34', family: 4 }]);
    expect(r.err).toBeNull();
    expect(r.address).toBe('93.184.216.34');
  });

  it.each(['10.0.0.5', '127.0.0.1', '169.254.169.254', '::1', 'fd00::1', '::ffff:192.168.0.1', '100.64.0.9'])('refuses a name that resolves to %s', async (ip) => {
    const r = await lookupWith([{ address: ip, family: ip.includes(':') ? 6 : 4 }]);
    expect(r.err).toBeInstanceOf(ForbiddenAddressError);
  });

  it('refuses the whole answer when one of several addresses is internal (no picking the public one by luck)', async () => {
    const r = await lookupWith([{ address: '93.184.216.34', family: 4 }, { address: '10.1.1.1', family: 4 }]);
    expect(r.err).toBeInstanceOf(ForbiddenAddressError);
  });

  it('loopback only under the local policy', async () => {
    expect((await lookupWith([{ address: '127.0.0.1', family: 4 }], true)).err).toBeNull();
    expect((await lookupWith([{ address: '10.0.0.1', family: 4 }], true)).err).toBeInstanceOf(ForbiddenAddressError);
  });
});

describe('Standard Webhooks headers', () => {
  it('verify with each secret during a rotation', () => {
    const a = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
    const b = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: {} });
    const h = signedHeaders('msg_01TEST', body, [a, b]);
    expect(h['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(a).verify(body, h)).toMatchObject({ type: 'webhook.test' });
    expect(new Webhook(b).verify(body, h)).toMatchObject({ type: 'webhook.test' });
    expect(() => new Webhook(a).verify(`${body} `, h)).toThrow();
  });
});
