import { chatSegment } from '../../shared/media/media.rules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundImage, inboundMedia, inboundText, newWamid, type InboundMediaFields } from '../../shared/whatsapp/cloud/payloads.ts';
import { MEDIA_WORDS } from '../../shared/media/media.rules.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { MediaUrlResponse } from '../../shared/media/media.schemas.ts';

/**
 * Inbound media (issue 5) against the real local runtime: webhook -> message.received ->
 * media-download consumer -> Graph stand-in over HTTP (resolve + download) -> blob store ->
 * message patched and `GET .../media` URLs served by the local gateway.
 */
let rt: TestRuntime;
let token: string;
let seq = 0;

beforeAll(async () => {
  rt = await startTestRuntime();
  token = await rt.signIn(rt.adminEmail);
});
afterAll(async () => rt?.cleanup());

const jpeg = (width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .jpeg()
    .toBuffer();
const b64sha = (b: Uint8Array) => createHash('sha256').update(b).digest('base64');

/** Post one inbound media message from a fresh customer; wait until every queue is empty. */
async function receive(type: 'image' | 'video' | 'audio' | 'document' | 'sticker', media: Omit<InboundMediaFields, 'mime_type'> & { mime_type?: string }): Promise<{ chatId: string; message: Message }> {
  const from = `1555030${String(++seq).padStart(4, '0')}`;
  const wamid = newWamid();
  const body = type === 'image' ? inboundImage(rt.phone, from, media, { id: wamid }) : inboundMedia(rt.phone, from, type, { mime_type: 'application/octet-stream', ...media }, { id: wamid });
  expect((await rt.postWebhook(body)).status).toBe(200);
  await rt.idle();
  const chatId = `${from}@c.us`;
  const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}/messages`);
  const message = ((await r.json()) as { messages: Message[] }).messages.find((m) => m.message_id === wamid);
  expect(message, 'message stored').toBeDefined();
  return { chatId, message: message! };
}

async function mediaOf(chatId: string, uniqueId: string, orgId = rt.orgId): Promise<{ status: number; body: MediaUrlResponse & { error?: unknown } }> {
  const r = await rt.api(token, `/api/orgs/${orgId}/chats/${encodeURIComponent(chatId)}/messages/${uniqueId}/media`);
  return { status: r.status, body: (await r.json()) as MediaUrlResponse };
}

describe('inbound media', () => {
  it('stores an image with a 120x80 thumbnail and hands out working, signed URLs', async () => {
    const bytes = await jpeg();
    rt.graph.addMedia('img-ok', bytes, 'image/jpeg');
    const { chatId, message } = await receive('image', { id: 'img-ok', sha256: b64sha(bytes), caption: 'the red one' });

    expect(message.media).toMatchObject({ media_id: 'img-ok', status: 'stored', mimetype: 'image/jpeg', size: bytes.length, attempts: 1, caption: 'the red one' });
    expect(message.media?.path).toBe(`media/${rt.orgId}/${chatSegment(chatId)}/${message.unique_id}/${message.unique_id}.jpg`);

    const { status, body } = await mediaOf(chatId, message.unique_id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'stored', mimetype: 'image/jpeg', size: bytes.length, error: null });
    const file = await fetch(`${rt.url}${body.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);

    const thumb = await fetch(`${rt.url}${body.thumbnail_url}`);
    expect(thumb.status).toBe(200);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 120, 80]);

    // a tampered or expired signature is refused, like S3
    expect((await fetch(`${rt.url}${body.url!.replace(/sig=[^&]+/, 'sig=AAAA')}`)).status).toBe(403);
    const past = Math.floor(Date.now() / 1000) - 10;
    expect((await fetch(`${rt.url}${body.url!.replace(/exp=\d+/, `exp=${past}`)}`)).status).toBe(403);
  });

  it('is idempotent: a redelivered event does not download again', async () => {
    const bytes = await jpeg(200, 200);
    rt.graph.addMedia('img-once', bytes, 'image/jpeg');
    const { message } = await receive('image', { id: 'img-once' });
    expect(message.media?.status).toBe('stored');
    // the EventBridge event as the rule delivers it (the consumer parses the whole envelope)
    const properties = { org_id: rt.orgId, chat: { chat_id: message.chat_id, org_id: rt.orgId, latest_message_timestamp: message.timestamp }, message };
    const metadata = { id: `message.received:${message.unique_id}`, version: 1, occurred_at: new Date().toISOString(), actor: 'system' };
    await rt.queues.get('media-download')!.send(JSON.stringify({ version: '0', id: 'redelivered', 'detail-type': 'message.received', source: 'chorus', account: '000000000000', time: new Date().toISOString(), region: 'local', resources: [], detail: { properties, metadata } }));
    await rt.idle();
    expect(rt.graph.mediaStats('img-once')).toEqual({ resolves: 1, downloads: 1 });
  });

  it('resolves the id again when the download URL has expired', async () => {
    const bytes = await jpeg(300, 300);
    rt.graph.addMedia('img-expired', bytes, 'image/jpeg', { expiredUrls: 1 });
    const { message } = await receive('image', { id: 'img-expired' });
    expect(message.media).toMatchObject({ status: 'stored', attempts: 1 });
    expect(rt.graph.mediaStats('img-expired')).toEqual({ resolves: 2, downloads: 1 });
  });

  it('retries a 500 from the Graph API, then stores the file', async () => {
    const bytes = await jpeg(100, 100);
    rt.graph.addMedia('img-flaky', bytes, 'image/jpeg', { failResolves: [500, 503] });
    const { chatId, message } = await receive('image', { id: 'img-flaky' });
    expect(message.media).toMatchObject({ status: 'stored', attempts: 3 });
    expect(message.media?.error).toBeUndefined();
    expect((await mediaOf(chatId, message.unique_id)).body.status).toBe('stored');
    expect(rt.queues.get('media-download')!.deadLettered).toBe(0);
  });

  it('gives up after the last receive: failed in words, nothing dead-lettered', async () => {
    rt.graph.addMedia('img-down', await jpeg(10, 10), 'image/jpeg', { failResolves: [500, 500, 500, 500, 500, 500] });
    const { message } = await receive('image', { id: 'img-down' });
    expect(message.media).toMatchObject({ status: 'failed', error: MEDIA_WORDS.gaveUp(5), attempts: 5 });
    expect(rt.graph.mediaStats('img-down')).toEqual({ resolves: 5, downloads: 0 });
    expect(rt.queues.get('media-download')!.deadLettered).toBe(0);
  });

  it('marks a media id WhatsApp no longer knows as failed, in words, without retrying', async () => {
    const { chatId, message } = await receive('image', { id: 'img-unknown' });
    expect(message.media).toMatchObject({ status: 'failed', error: 'WhatsApp no longer has this file (media ids expire after 7 days).', attempts: 1 });
    expect(message.media?.path).toBeUndefined();
    const { body } = await mediaOf(chatId, message.unique_id);
    expect(body).toMatchObject({ status: 'failed', url: null, thumbnail_url: null, error: MEDIA_WORDS.gone });
  });

  it('refuses a file whose sha256 does not match', async () => {
    const bytes = await jpeg(120, 120);
    rt.graph.addMedia('img-badsha', bytes, 'image/jpeg', { sha256: b64sha(Buffer.from('something else')) });
    const { message } = await receive('image', { id: 'img-badsha' });
    expect(message.media).toMatchObject({ status: 'failed', error: MEDIA_WORDS.checksum });
  });

  it('refuses files larger than WhatsApp allows: announced, or found while reading', async () => {
    rt.graph.addMedia('stk-big', Buffer.alloc(600 * 1024, 1), 'image/webp');
    const sticker = await receive('sticker', { id: 'stk-big', mime_type: 'image/webp' });
    expect(sticker.message.media).toMatchObject({ status: 'failed', error: 'The file is larger than WhatsApp allows (500 KB for stickers).' });
    expect(rt.graph.mediaStats('stk-big')?.downloads).toBe(0);

    // Meta announces a small file but sends 6 MB: reading stops past 5 MB
    rt.graph.addMedia('img-liar', Buffer.alloc(6 * 1024 * 1024, 7), 'image/jpeg', { fileSize: 1000 });
    const image = await receive('image', { id: 'img-liar' });
    expect(image.message.media).toMatchObject({ status: 'failed', error: 'The file is larger than WhatsApp allows (5 MB for images).' });
  });

  it('refuses bytes that are not the type declared, except for documents', async () => {
    // a zip local-file header: not an image
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]), Buffer.alloc(200, 0)]);
    rt.graph.addMedia('img-zip', zip, 'image/jpeg');
    const image = await receive('image', { id: 'img-zip' });
    expect(image.message.media).toMatchObject({ status: 'failed', error: expect.stringMatching(/^The file is not the image it claims to be \(it looks like a \.zip file\)/) });

    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    rt.graph.addMedia('doc-pdf', pdf, 'application/pdf');
    const doc = await receive('document', { id: 'doc-pdf', mime_type: 'application/pdf', filename: 'Invoice 7/2026.pdf' });
    expect(doc.message.media).toMatchObject({ status: 'stored', mimetype: 'application/pdf', filename: 'Invoice 7/2026.pdf' });
    expect(doc.message.media?.path).toMatch(/\/2026\.pdf$/);
    expect(doc.message.media?.thumbnail).toBeUndefined();
    const { body } = await mediaOf(doc.chatId, doc.message.unique_id);
    const file = await fetch(`${rt.url}${body.url}`);
    expect(file.headers.get('content-disposition')).toContain('attachment');
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true);
  });

  it('serves every inbound file as an attachment with nosniff: an html document without a name, an image, its thumbnail (issue 42 §4)', async () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');
    rt.graph.addMedia('doc-html', html, 'text/html');
    const doc = await receive('document', { id: 'doc-html', mime_type: 'text/html' });
    expect(doc.message.media).toMatchObject({ status: 'stored' });
    const { body } = await mediaOf(doc.chatId, doc.message.unique_id);
    const file = await fetch(`${rt.url}${body.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"/);

    const bytes = await jpeg(300, 200);
    rt.graph.addMedia('img-attach', bytes, 'image/jpeg');
    const image = await receive('image', { id: 'img-attach' });
    const urls = (await mediaOf(image.chatId, image.message.unique_id)).body;
    for (const u of [urls.url, urls.thumbnail_url]) {
      const r = await fetch(`${rt.url}${u}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('content-disposition')).toMatch(/^attachment; filename="[A-Za-z0-9._-]+\.jpg"/);
    }
  });

  it('answers 404 for another org, another chat, or a message without a file', async () => {
    const bytes = await jpeg(50, 50);
    rt.graph.addMedia('img-private', bytes, 'image/jpeg');
    const { chatId, message } = await receive('image', { id: 'img-private' });
    expect((await mediaOf(chatId, message.unique_id, 'org_someone_else')).status).toBe(404);
    expect((await mediaOf('15550000000@c.us', message.unique_id)).status).toBe(404);
    const wamid = newWamid();
    expect((await rt.postWebhook(inboundText(rt.phone, '15550309999', 'just words', { id: wamid }))).status).toBe(200);
    await rt.idle();
    const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/15550309999%40c.us/messages`);
    const text = ((await r.json()) as { messages: Message[] }).messages.find((m) => m.message_id === wamid)!;
    const res = await mediaOf('15550309999@c.us', text.unique_id);
    expect([res.status, (res.body.error as unknown as { code: string }).code]).toEqual([404, 'media.not_found']);
    expect((await mediaOf(chatId, '01J0000000000000000000000X')).status).toBe(404);
  });
});
