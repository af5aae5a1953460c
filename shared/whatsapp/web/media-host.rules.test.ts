import { describe, expect, it } from 'vitest';
import { MEDIA_LIMITS } from '../../media/media.rules.ts';
import { checkWaMediaUrl, mediaTypeOfContentKey, waMediaByteCap, waMediaUrlOf } from './media-host.rules.ts';

describe('checkWaMediaUrl (issue 42 §4: a WhatsApp Web file comes only from WhatsApp media hosts)', () => {
  it.each([
    'https://mmg.whatsapp.net/v/t62.7118-24/12345_n.enc?ccb=11-4&oh=01&oe=65',
    'https://media-bom1-1.cdn.whatsapp.net/v/t62.7117-24/abc.enc',
    'https://media.fdel1-2.fna.whatsapp.net/v/t62/abc.enc',
    'https://MMG.WhatsApp.NET/v/x.enc',
    'https://mmg.whatsapp.net./v/x.enc',
  ])('accepts %s', (url) => {
    expect(checkWaMediaUrl(url).ok).toBe(true);
  });

  it.each([
    ['http://mmg.whatsapp.net/v/x.enc', /scheme/],
    ['https://127.0.0.1/x', /host/],
    ['https://169.254.169.254/latest/meta-data/', /host/],
    ['https://[::1]/x', /host/],
    ['https://evil.example/mmg.whatsapp.net', /host/],
    ['https://whatsapp.net.evil.example/x', /host/],
    ['https://evilwhatsapp.net/x', /host/],
    ['https://mmg.whatsapp.net:8443/x', /port/],
    ['https://mmg.whatsapp.net@evil.example/x', /credentials/],
    ['https://user:pw@mmg.whatsapp.net/x', /credentials/],
    ['file:///etc/passwd', /scheme/],
    ['not a url', /not a URL/],
  ])('refuses %s', (url, why) => {
    const verdict = checkWaMediaUrl(url);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toMatch(why);
  });

  it('a directPath goes to Baileys DEF_HOST; one that does not start with / cannot move the host', () => {
    expect(waMediaUrlOf({ directPath: '/v/t62/x.enc' })).toBe('https://mmg.whatsapp.net/v/t62/x.enc');
    expect(checkWaMediaUrl(waMediaUrlOf({ directPath: '/v/t62/x.enc' })!).ok).toBe(true);
    expect(checkWaMediaUrl(waMediaUrlOf({ directPath: '.evil.example/x' })!).ok).toBe(false);
    expect(checkWaMediaUrl(waMediaUrlOf({ directPath: '@evil.example/x' })!).ok).toBe(false);
    expect(checkWaMediaUrl(waMediaUrlOf({ directPath: ':80@evil.example/x' })!).ok).toBe(false);
    expect(waMediaUrlOf({ url: 'https://mmg.whatsapp.net/a', directPath: '/b' })).toBe('https://mmg.whatsapp.net/a');
    expect(waMediaUrlOf({})).toBeUndefined();
  });

  it('caps each kind at its MEDIA_LIMITS size', () => {
    expect(waMediaByteCap(mediaTypeOfContentKey('imageMessage'))).toBe(MEDIA_LIMITS.image.bytes);
    expect(waMediaByteCap(mediaTypeOfContentKey('documentMessage'))).toBe(MEDIA_LIMITS.document.bytes);
    expect(waMediaByteCap(mediaTypeOfContentKey('stickerMessage'))).toBe(MEDIA_LIMITS.sticker.bytes);
    expect(mediaTypeOfContentKey('audioMessage', true)).toBe('ptt');
    expect(waMediaByteCap(mediaTypeOfContentKey('somethingMessage'))).toBe(MEDIA_LIMITS.image.bytes);
  });
});
