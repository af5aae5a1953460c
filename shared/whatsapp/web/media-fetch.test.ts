import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MediaTooLargeError } from '../cloud/graph-client.ts';
import { downloadWaWebMedia, MediaHostRefusedError, readCapped, type BaileysMedia } from './media-fetch.ts';

/** A local server standing in for the address a sender put in a message's `url`; it counts requests. */
let server: Server;
let hits = 0;
let base = '';
beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end('x'.repeat(1000));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const mediaKey = Buffer.alloc(32, 7);
const imageMessage = (fields: Record<string, unknown>) => ({ key: { id: 'M1', remoteJid: '15550001111@s.whatsapp.net' }, message: { imageMessage: { mimetype: 'image/jpeg', mediaKey, ...fields } } });

describe('downloadWaWebMedia (issue 42 §4)', () => {
  it('never requests a url outside WhatsApp media hosts (real Baileys)', async () => {
    const B = (await import('baileys')) as unknown as BaileysMedia;
    await expect(downloadWaWebMedia(B, imageMessage({ url: `${base}/steal`, directPath: '/v/x.enc' }))).rejects.toBeInstanceOf(MediaHostRefusedError);
    await expect(downloadWaWebMedia(B, imageMessage({ url: 'https://169.254.169.254/latest/meta-data/' }))).rejects.toThrow(/not a WhatsApp media host/);
    expect(hits).toBe(0);
  });

  it('refuses a re-uploaded location outside WhatsApp media hosts', async () => {
    const gone = Object.assign(new Error('gone'), { response: { status: 410 } });
    const B: BaileysMedia = {
      extractMessageContent: (m) => m,
      getContentType: (m) => Object.keys(m as object)[0],
      downloadContentFromMessage: vi.fn(async () => {
        throw gone;
      }),
    };
    const reupload = vi.fn(async () => imageMessage({ url: `${base}/after-reupload` }));
    await expect(downloadWaWebMedia(B, imageMessage({ url: 'https://mmg.whatsapp.net/v/x.enc' }), { reupload })).rejects.toBeInstanceOf(MediaHostRefusedError);
    expect(reupload).toHaveBeenCalledOnce();
    expect(B.downloadContentFromMessage).toHaveBeenCalledOnce();
  });

  it('hands Baileys only the checked URL, with a timeout signal and a redirect check', async () => {
    let seen: { media: Record<string, unknown>; opts: { options: { signal: AbortSignal; beforeRedirect: (o: { href: string }) => void } } } | undefined;
    const B: BaileysMedia = {
      extractMessageContent: (m) => m,
      getContentType: (m) => Object.keys(m as object)[0],
      downloadContentFromMessage: async (media, _type, opts) => {
        seen = { media: media as never, opts: opts as never };
        return Readable.from([Buffer.from('ok')]);
      },
    };
    const bytes = await downloadWaWebMedia(B, imageMessage({ url: 'https://mmg.whatsapp.net/v/x.enc', directPath: '/elsewhere' }));
    expect(Buffer.from(bytes).toString()).toBe('ok');
    expect(seen!.media).toEqual({ url: 'https://mmg.whatsapp.net/v/x.enc', mediaKey });
    expect(seen!.opts.options.signal).toBeInstanceOf(AbortSignal);
    expect(() => seen!.opts.options.beforeRedirect({ href: `${base}/x` })).toThrow(MediaHostRefusedError);
    expect(() => seen!.opts.options.beforeRedirect({ href: 'https://media-bom1-1.cdn.whatsapp.net/x' })).not.toThrow();
  });

  it('refuses a declared fileLength over the type limit before fetching', async () => {
    const B: BaileysMedia = { extractMessageContent: (m) => m, getContentType: (m) => Object.keys(m as object)[0], downloadContentFromMessage: vi.fn() };
    await expect(downloadWaWebMedia(B, imageMessage({ url: 'https://mmg.whatsapp.net/v/x.enc', fileLength: 6 * 1024 * 1024 }))).rejects.toBeInstanceOf(MediaTooLargeError);
    expect(B.downloadContentFromMessage).not.toHaveBeenCalled();
  });
});

describe('readCapped', () => {
  it('stops an endless body at the cap and destroys it', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    await expect(readCapped(endless, 1024 * 1024)).rejects.toBeInstanceOf(MediaTooLargeError);
    expect(endless.destroyed).toBe(true);
    expect(produced).toBeLessThan(4 * 1024 * 1024);
  });

  it('gives up on a body that stalls when the signal fires', async () => {
    const stalled = new Readable({ read() {} });
    stalled.push(Buffer.from('partial'));
    await expect(readCapped(stalled, 1024, AbortSignal.timeout(50))).rejects.toThrow(/timeout|aborted/i);
    expect(stalled.destroyed).toBe(true);
  });

  it('returns a body within the cap', async () => {
    const bytes = await readCapped(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 4);
    expect(Buffer.from(bytes).toString()).toBe('abcd');
  });
});
