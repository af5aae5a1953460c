import { chatSegment } from '../../shared/media/media.rules.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { CreateUploadResponse, MediaUrlResponse } from '../../shared/media/media.schemas.ts';

/**
 * Outbound media (issue 5 "Media out") against the real local runtime: POST …/uploads -> signed PUT
 * to the local blob store -> POST …/messages { media } (checked, thumbnail) -> whatsapp-outbound
 * consumer -> Graph stand-in (multipart upload, then the media message by id).
 */
let rt: TestRuntime;
let token: string;
let outsider: string;
let otherOrg: string;
let seq = 0;
const enc = encodeURIComponent;
const MB = 1024 * 1024;

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@media-out.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  otherOrg = await seedDemo({
    orgName: 'Other Co',
    admin: { email: outsiderEmail, sub, name: 'Outsider' },
    member: { email: 'member2@media-out.chorus', sub: 'x', name: 'M2' },
    phone: { phone_number_id: '222000333', display_phone_number: '15552230000' },
  });
  [token, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(outsiderEmail)]);
});
afterAll(async () => rt?.cleanup());

const png = (width = 64, height = 48) => sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();

/** A chat whose customer just wrote (the 24 h window is open). */
async function openChat(): Promise<string> {
  const from = `1555040${String(++seq).padStart(4, '0')}`;
  expect((await rt.postWebhook(inboundText(rt.phone, from, 'send me the picture'))).status).toBe(200);
  await rt.idle();
  return `${from}@c.us`;
}

async function requestUpload(chatId: string, input: unknown, who = token, orgId = rt.orgId) {
  const r = await rt.api(who, `/api/orgs/${orgId}/chats/${enc(chatId)}/uploads`, { method: 'POST', json: input });
  return { status: r.status, body: (await r.json()) as CreateUploadResponse & { error?: { code: string; message: string; details: Array<{ field: string; reason: string }> } } };
}

async function upload(chatId: string, bytes: Buffer, filename: string, mimetype: string): Promise<CreateUploadResponse> {
  const u = await requestUpload(chatId, { filename, mimetype, size: bytes.length });
  expect(u.status).toBe(201);
  const put = await fetch(`${rt.url}${u.body.upload_url}`, { method: 'PUT', headers: u.body.headers, body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  return u.body;
}

async function sendMedia(chatId: string, input: unknown) {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${enc(chatId)}/messages`, { method: 'POST', json: input });
  return { status: r.status, body: (await r.json()) as { message: Message; error?: { code: string; message: string; details: Array<{ field: string; reason: string }> } } };
}

async function messageOf(chatId: string, uniqueId: string): Promise<Message> {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${enc(chatId)}/messages`);
  return ((await r.json()) as { messages: Message[] }).messages.find((m) => m.unique_id === uniqueId)!;
}

describe('upload URLs', () => {
  it('refuses a type WhatsApp cannot send and a file over the type\'s limit, with field reasons', async () => {
    const chatId = await openChat();
    const big = await requestUpload(chatId, { filename: 'huge.png', mimetype: 'image/png', size: 5 * MB + 1 });
    expect(big.status).toBe(400);
    expect(big.body.error?.details).toEqual([{ field: 'size', reason: 'is larger than WhatsApp allows (5 MB for images)' }]);

    const zip = await requestUpload(chatId, { filename: 'stuff.zip', mimetype: 'application/zip', size: 100 });
    expect(zip.status).toBe(400);
    expect(zip.body.error?.details).toEqual([{ field: 'mimetype', reason: expect.stringContaining('is not a file type WhatsApp can send') }]);

    const missing = await requestUpload(chatId, { filename: '', mimetype: 'image/png' });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.details).toEqual(expect.arrayContaining([{ field: 'filename', reason: 'must not be empty' }, { field: 'size', reason: 'is required' }]));

    // a document may be far larger than an image
    expect((await requestUpload(chatId, { filename: 'report.pdf', mimetype: 'application/pdf', size: 50 * MB })).status).toBe(201);
  });

  it('signs the PUT: a tampered signature, another content type or more bytes than declared are refused', async () => {
    const chatId = await openChat();
    const bytes = await png();
    const u = (await requestUpload(chatId, { filename: 'a.png', mimetype: 'image/png', size: bytes.length })).body;
    // issue 41 §5: the chat's segment of a key is a hash, never the number
    expect(u.key).toMatch(new RegExp(`^media/${rt.orgId}/${chatSegment(chatId)}/up-[0-9A-Z]{26}/a\\.png$`));
    expect(u.key).not.toContain(chatId.split('@')[0]);
    expect((await fetch(`${rt.url}${u.upload_url.replace(/sig=[^&]+/, 'sig=AAAA')}`, { method: 'PUT', headers: u.headers, body: new Uint8Array(bytes) })).status).toBe(403);
    expect((await fetch(`${rt.url}${u.upload_url}`, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: new Uint8Array(bytes) })).status).toBe(403);
    expect((await fetch(`${rt.url}${u.upload_url}`, { method: 'PUT', headers: u.headers, body: new Uint8Array(Buffer.concat([bytes, Buffer.alloc(10)])) })).status).toBe(413);
  });

  it('is 404 for another org', async () => {
    const chatId = await openChat();
    const r = await requestUpload(chatId, { filename: 'a.png', mimetype: 'image/png', size: 10 }, token, otherOrg);
    expect(r.status).toBe(404);
    expect(r.body.error?.code).toBe('organization.not_found');
    // the other org's own member cannot use our chat either
    const o = await requestUpload(chatId, { filename: 'a.png', mimetype: 'image/png', size: 10 }, outsider, otherOrg);
    expect(o.status).toBe(404);
  });
});

describe('sending media', () => {
  it('uploads the file to Graph and sends an image message with that id and the caption', async () => {
    const chatId = await openChat();
    const bytes = await png(640, 480);
    const u = await upload(chatId, bytes, 'sky.png', 'image/png');

    const sent = await sendMedia(chatId, { media: { key: u.key, filename: 'sky.png', mimetype: 'image/png' }, caption: 'The blue one' });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toMatchObject({ message_type: 'image', body: 'The blue one', ack: 0, from_me: true });
    expect(sent.body.message.media).toMatchObject({ path: u.key, filename: 'sky.png', mimetype: 'image/png', status: 'stored', size: bytes.length, caption: 'The blue one' });
    await rt.idle();

    const up = rt.graph.uploads.at(-1)!;
    expect(up).toMatchObject({ phone_number_id: rt.phone.phone_number_id, messaging_product: 'whatsapp', type: 'image/png', filename: 'sky.png' });
    expect(up.bytes.equals(bytes)).toBe(true);
    const msg = rt.graph.sent.at(-1)!;
    expect(msg.path).toMatch(/\/messages$/);
    expect(msg.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: chatId.split('@')[0],
      type: 'image',
      image: { id: up.id, caption: 'The blue one' },
      // Meta echoes it in the statuses: reconciles a send that crashed (issue 23)
      biz_opaque_callback_data: `chorus1|${chatId}|${sent.body.message.timestamp}|${sent.body.message.unique_id}`,
    });
    const stored = await messageOf(chatId, sent.body.message.unique_id);
    expect(stored.message_id).toBe(msg.wamid);
    expect(stored.media?.media_id).toBe(up.id);

    // the same media endpoint as inbound files: the file and a 120x80 thumbnail
    const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${enc(chatId)}/messages/${sent.body.message.unique_id}/media`);
    expect(r.status).toBe(200);
    const media = (await r.json()) as MediaUrlResponse;
    expect(media).toMatchObject({ status: 'stored', mimetype: 'image/png', filename: 'sky.png', size: bytes.length, error: null });
    const file = await fetch(`${rt.url}${media.url}`);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    const thumb = await sharp(Buffer.from(await (await fetch(`${rt.url}${media.thumbnail_url}`)).arrayBuffer())).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['jpeg', 120, 80]);
  });

  it('keeps a document\'s file name and sends it with the caption', async () => {
    const chatId = await openChat();
    const bytes = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const u = await upload(chatId, bytes, 'Quote 2024 (final).pdf', 'application/pdf');
    const sent = await sendMedia(chatId, { media: { key: u.key, filename: 'Quote 2024 (final).pdf', mimetype: 'application/pdf' }, caption: 'Your quote' });
    expect(sent.status).toBe(201);
    expect(sent.body.message.message_type).toBe('document');
    await rt.idle();
    const up = rt.graph.uploads.at(-1)!;
    expect(up).toMatchObject({ type: 'application/pdf', filename: 'Quote 2024 (final).pdf' });
    expect(rt.graph.sent.at(-1)!.body).toMatchObject({ type: 'document', document: { id: up.id, caption: 'Your quote', filename: 'Quote 2024 (final).pdf' } });

    const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${enc(chatId)}/messages/${sent.body.message.unique_id}/media`);
    const media = (await r.json()) as MediaUrlResponse;
    expect(media).toMatchObject({ status: 'stored', filename: 'Quote 2024 (final).pdf', thumbnail_url: null });
    const file = await fetch(`${rt.url}${media.url}`);
    expect(file.headers.get('content-disposition')).toContain('attachment');
  });

  it('refuses a file that is not what it claims (a zip uploaded as image/png) and deletes it', async () => {
    const chatId = await openChat();
    // a zip's local file header: file-type sniffs application/zip
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0, 0]), Buffer.alloc(200, 1)]);
    const u = await upload(chatId, zip, 'cat.png', 'image/png');
    const before = rt.graph.sent.length;
    const sent = await sendMedia(chatId, { media: { key: u.key, filename: 'cat.png', mimetype: 'image/png' } });
    expect(sent.status).toBe(400);
    expect(sent.body.error?.message).toBe('The file is not the image it claims to be (it looks like a .zip file).');
    expect(sent.body.error?.details).toEqual([{ field: 'media', reason: 'is not the image it claims to be (it looks like a .zip file)' }]);
    // nothing stored or sent, and the upload is gone
    const again = await sendMedia(chatId, { media: { key: u.key, filename: 'cat.png', mimetype: 'image/png' } });
    expect(again.body.error?.details).toEqual([{ field: 'media.key', reason: expect.stringContaining('was not uploaded') }]);
    await rt.idle();
    expect(rt.graph.sent.length).toBe(before);
  });

  it('refuses a key of another chat, a key never uploaded, and body with media', async () => {
    const chatId = await openChat();
    const other = await openChat();
    const bytes = await png();
    const u = await upload(other, bytes, 'x.png', 'image/png');
    const wrongChat = await sendMedia(chatId, { media: { key: u.key, filename: 'x.png', mimetype: 'image/png' } });
    expect(wrongChat.status).toBe(400);
    expect(wrongChat.body.error?.details).toEqual([{ field: 'media.key', reason: 'is not an upload of this chat' }]);
    const never = await sendMedia(chatId, { media: { key: u.key.replace(chatSegment(other), chatSegment(chatId)), filename: 'x.png', mimetype: 'image/png' } });
    expect(never.body.error?.details).toEqual([{ field: 'media.key', reason: expect.stringContaining('was not uploaded') }]);
    const both = await sendMedia(chatId, { body: 'hi', media: { key: u.key, filename: 'x.png', mimetype: 'image/png' } });
    expect(both.body.error?.details).toEqual([{ field: 'body', reason: expect.stringContaining('must not be sent with media') }]);
    const none = await sendMedia(chatId, {});
    expect(none.body.error?.details).toEqual([{ field: 'body', reason: 'is required' }]);
  });

  it('marks the message failed with the reason when WhatsApp refuses the send', async () => {
    const chatId = await openChat();
    const u = await upload(chatId, await png(), 'y.png', 'image/png');
    rt.graph.failNext(131053);
    const sent = await sendMedia(chatId, { media: { key: u.key, filename: 'y.png', mimetype: 'image/png' } });
    expect(sent.status).toBe(201);
    await rt.idle();
    const stored = await messageOf(chatId, sent.body.message.unique_id);
    expect(stored.ack).toBe(-1);
    expect(stored.delivery_error).toMatchObject({ code: 131053, reason: 'The attached media could not be processed by WhatsApp.' });
  });
});
