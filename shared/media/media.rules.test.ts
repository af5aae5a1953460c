import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { acceptsSniffed, checksumMatches, downloadNameOf, extensionFor, familyOf, isMediaMessageType, MEDIA_LIMITS, MEDIA_WORDS, mediaKey, safeFilename, safeSegment, thumbnailKey, chatSegment } from './media.rules.ts';

const digestOf = (s: string) => {
  const h = createHash('sha256').update(s).digest();
  return { hex: h.toString('hex'), base64: h.toString('base64') };
};

describe('media limits (Meta "Media")', () => {
  it('allows 5 MB images, 16 MB video and audio, 100 MB documents, 500 KB stickers', () => {
    expect(MEDIA_LIMITS.image.bytes).toBe(5 * 1024 * 1024);
    expect(MEDIA_LIMITS.video.bytes).toBe(16 * 1024 * 1024);
    expect(MEDIA_LIMITS.audio.bytes).toBe(MEDIA_LIMITS.ptt.bytes);
    expect(MEDIA_LIMITS.document.bytes).toBe(100 * 1024 * 1024);
    expect(MEDIA_LIMITS.sticker.bytes).toBe(500 * 1024);
  });
  it('says which limit was broken, in words', () => {
    expect(MEDIA_WORDS.tooLarge('image')).toBe('The file is larger than WhatsApp allows (5 MB for images).');
    expect(MEDIA_WORDS.tooLarge('ptt')).toBe('The file is larger than WhatsApp allows (16 MB for voice messages).');
    expect(MEDIA_WORDS.tooLarge('document')).toBe('The file is larger than WhatsApp allows (100 MB for documents).');
    expect(MEDIA_WORDS.gone).toBe('WhatsApp no longer has this file (media ids expire after 7 days).');
    expect(MEDIA_WORDS.mismatch('image', 'zip')).toBe('The file is not the image it claims to be (it looks like a .zip file), so Chorus did not keep it.');
    expect(MEDIA_WORDS.gaveUp(5)).toMatch(/after 5 tries/);
  });
  it('knows which message types carry files', () => {
    expect(['image', 'video', 'audio', 'ptt', 'document', 'sticker'].every(isMediaMessageType)).toBe(true);
    expect(isMediaMessageType('text')).toBe(false);
    expect(isMediaMessageType('location')).toBe(false);
  });
});

describe('acceptsSniffed', () => {
  it('needs the declared family for images, stickers, video and audio', () => {
    expect(familyOf('sticker')).toBe('image');
    expect(acceptsSniffed('image', 'image/png')).toBe(true);
    expect(acceptsSniffed('image', 'application/zip')).toBe(false);
    expect(acceptsSniffed('sticker', 'image/webp')).toBe(true);
    expect(acceptsSniffed('video', 'image/jpeg')).toBe(false);
    expect(acceptsSniffed('ptt', 'audio/ogg')).toBe(true);
    expect(acceptsSniffed('audio', 'application/x-msdownload')).toBe(false);
  });
  it('takes audio in an MP4 container, any document, and bytes without a signature', () => {
    expect(acceptsSniffed('audio', 'video/mp4')).toBe(true);
    expect(acceptsSniffed('document', 'application/zip')).toBe(true);
    expect(acceptsSniffed('image', undefined)).toBe(true);
  });
});

describe('checksumMatches', () => {
  const d = digestOf('hello');
  it('accepts base64 (Meta), unpadded or URL-safe base64, and hex in any case', () => {
    expect(checksumMatches(d, d.base64)).toBe(true);
    expect(checksumMatches(d, d.base64.replace(/=+$/, ''))).toBe(true);
    expect(checksumMatches(d, d.base64.replace(/\+/g, '-').replace(/\//g, '_'))).toBe(true);
    expect(checksumMatches(d, d.hex.toUpperCase())).toBe(true);
  });
  it('refuses another file’s digest', () => {
    const other = digestOf('hellO');
    expect(checksumMatches(d, other.base64)).toBe(false);
    expect(checksumMatches(d, other.hex)).toBe(false);
  });
});

describe('keys', () => {
  it('builds media/<org>/<chat>/<unique_id>/<file>', () => {
    // issue 41 §5: a number chat's segment is a hash (a file URL never shows the number); other ids stay
    const seg = chatSegment('15551234567@c.us');
    expect(seg).toMatch(/^c[0-9a-f]{16}$/);
    expect(mediaKey('org_1', '15551234567@c.us', '01JABC', null, 'jpg')).toBe(`media/org_1/${seg}/01JABC/01JABC.jpg`);
    expect(mediaKey('org_1', '15551234567@c.us', '01JABC', 'Quote (final).pdf', 'pdf')).toBe(`media/org_1/${seg}/01JABC/Quote__final_.pdf`);
    expect(thumbnailKey('org_1', '120363000000000001@g.us', '01JABC')).toBe('media/org_1/120363000000000001@g.us/01JABC/thumbnail/120x80.jpg');
    expect(mediaKey('org_1', '15551234567@c.us', '01JABC', null, 'jpg')).not.toContain('15551234567');
  });
  it('never lets a name leave its folder', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('..')).toBe('_');
    expect(safeFilename('a\\b\\c.txt')).toBe('c.txt');
    expect(safeSegment('..')).toBe('__');
    expect(safeSegment('a/b')).toBe('a_b');
    expect(mediaKey('o', '../x', 'u', '../../y.png', 'png')).toBe('media/o/.._x/u/y.png');
    expect(mediaKey('o', 'c', 'u', '../../y.png', 'png').split('/')).not.toContain('..');
  });
  it('maps MIME types to extensions', () => {
    expect(extensionFor('image/jpeg')).toBe('jpg');
    expect(extensionFor('audio/ogg; codecs=opus')).toBe('ogg');
    expect(extensionFor('application/x-unknown-thing')).toBe('bin');
    expect(extensionFor(undefined)).toBe('bin');
  });
});

describe('downloadNameOf (issue 42 §4: every inbound file is an attachment with a safe name)', () => {
  it("keeps the customer's name without folders or control characters", () => {
    expect(downloadNameOf('Invoice 7/2026.pdf', 'media/o/c/u/2026.pdf')).toBe('2026.pdf');
    expect(downloadNameOf('..\\..\\evil.html', 'media/o/c/u/evil.html')).toBe('evil.html');
    expect(downloadNameOf('a\r\nSet-Cookie: x.pdf', 'media/o/c/u/x.pdf')).toBe('aSet-Cookie: x.pdf');
    expect(downloadNameOf('Résumé.pdf', 'media/o/c/u/R_sum_.pdf')).toBe('Résumé.pdf');
  });

  it("falls back to the key's last segment when there is no usable name", () => {
    expect(downloadNameOf(undefined, 'media/o/c/01J/01J.html')).toBe('01J.html');
    expect(downloadNameOf('', 'media/o/c/01J/01J.bin')).toBe('01J.bin');
    expect(downloadNameOf('..', 'media/o/c/01J/01J.bin')).toBe('01J.bin');
    expect(downloadNameOf(null, 'media/o/c/01J/thumbnail/120x80.jpg')).toBe('120x80.jpg');
  });
});
