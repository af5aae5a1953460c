import { describe, expect, it } from 'vitest';
import { forwardPlan, MEDIA_ID_REUSE_MS } from './forward.rules.ts';

const now = 1_800_000_000_000;
const stored = { path: 'media/o/c/u/photo.jpg', thumbnail: 'media/o/c/u/thumbnail/120x80.jpg', mimetype: 'image/jpeg', size: 2048, status: 'stored' as const, caption: 'Receipt' };

describe('forwardPlan', () => {
  it('text is sent again as text', () => {
    expect(forwardPlan({ message_type: 'text', body: 'Hello', from_me: false }, 'p1', now)).toEqual({ kind: 'text', body: 'Hello' });
    expect(forwardPlan({ message_type: 'text', body: '  ', from_me: false }, 'p1', now).kind).toBe('refused');
  });

  it('inbound media is re-sent from the stored file, never by the customer’s media id', () => {
    const p = forwardPlan({ message_type: 'image', from_me: false, media: { ...stored, media_id: 'inbound-id' } }, 'p1', now);
    expect(p).toEqual({ kind: 'media', message_type: 'image', media: { mimetype: 'image/jpeg', caption: 'Receipt', path: stored.path, thumbnail: stored.thumbnail, size: 2048, status: 'stored' } });
  });

  it('our upload id is reused on the same number within 29 days, not after, not on another number', () => {
    const ours = { ...stored, media_id: 'up-1', media_phone_id: 'p1', uploaded_at: now - MEDIA_ID_REUSE_MS + 1 };
    const p = forwardPlan({ message_type: 'image', from_me: true, media: ours }, 'p1', now);
    expect(p.kind === 'media' && p.media.media_id).toBe('up-1');
    const old = forwardPlan({ message_type: 'image', from_me: true, media: { ...ours, uploaded_at: now - MEDIA_ID_REUSE_MS } }, 'p1', now);
    expect(old.kind === 'media' && old.media.media_id).toBeUndefined();
    const other = forwardPlan({ message_type: 'image', from_me: true, media: ours }, 'p2', now);
    expect(other.kind === 'media' && other.media.media_id).toBeUndefined();
  });

  it('voice notes go as audio; documents keep their name', () => {
    expect(forwardPlan({ message_type: 'ptt', from_me: false, media: { ...stored, mimetype: 'audio/ogg; codecs=opus', caption: null } }, 'p1', now)).toMatchObject({ kind: 'media', message_type: 'audio', media: { mimetype: 'audio/ogg' } });
    expect(forwardPlan({ message_type: 'document', from_me: false, media: { ...stored, mimetype: 'application/pdf', filename: 'a.pdf' } }, 'p1', now)).toMatchObject({ kind: 'media', message_type: 'document', media: { filename: 'a.pdf' } });
  });

  it('refuses what cannot be sent, with the reason', () => {
    expect(forwardPlan({ message_type: 'sticker', from_me: false, media: stored }, 'p1', now)).toEqual({ kind: 'refused', reason: 'Stickers cannot be forwarded.' });
    expect(forwardPlan({ message_type: 'location', from_me: false }, 'p1', now)).toEqual({ kind: 'refused', reason: 'Only text and media messages can be forwarded.' });
    expect(forwardPlan({ message_type: 'image', from_me: false, media: { media_id: 'x', status: 'pending' } }, 'p1', now).kind).toBe('refused');
    expect(forwardPlan({ message_type: 'image', from_me: false, media: { ...stored, status: 'failed' } }, 'p1', now).kind).toBe('refused');
    expect(forwardPlan({ message_type: 'document', from_me: false, media: { ...stored, mimetype: 'application/zip' } }, 'p1', now)).toEqual({ kind: 'refused', reason: 'WhatsApp cannot send this kind of file (application/zip).' });
    expect(forwardPlan({ message_type: 'video', from_me: false, media: { ...stored, mimetype: 'video/mp4', size: 17 * 1024 * 1024 } }, 'p1', now).kind).toBe('refused');
  });
});
