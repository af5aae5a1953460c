import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { db } from '../../shared/db/service.ts';
import { eventually } from '../factories/wait.ts';
import { seedWaWebPhone } from '../factories/wa-web.ts';
import { forgetOrgPreferences } from '../../shared/org/preferences.ts';
import type { Broadcast, BroadcastPreview, BroadcastUploadResponse } from '../../shared/broadcast/broadcast.schemas.ts';

/**
 * A file uploaded from the member's computer for a broadcast (issue 16 "Media can be attached"), on
 * the local runtime: POST /broadcasts/uploads (type and size checked like the composer's), the
 * presigned PUT to the blob store, preview and create with `content.media = { upload_id }`, and the
 * engine's sends: each Cloud API recipient gets exactly one media message in the Graph stand-in's
 * requests, with the text as caption, and the file is uploaded to the Graph API once for the number
 * (its media id reused); a WhatsApp Web recipient's message carries the stored file. Bad input is
 * a 400 with the field and the reason; a member without bulk_message is refused.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const chatOf = (n: number) => `1555777${String(n).padStart(4, '0')}@c.us`;
type Err = { error: { code: string; message: string; details: Array<{ field: string; reason: string }> } };

/** Store a Cloud API chat on the org's number whose customer wrote an hour ago (window open). */
async function seedChat(n: number): Promise<void> {
  const phone = (await db().entities.phone.query.byOrg({ org_id: rt.orgId }).go()).data.find((p) => p.connection_type !== 'wa_web')!;
  const at = Date.now() - 3600_000;
  await db()
    .entities.chat.create({ org_id: rt.orgId, chat_id: chatOf(n), chat_type: 'user', chat_name: `Customer ${n}`, org_phone: phone.org_phone, phone_id: phone.phone_id, chat_org_phones: [phone.org_phone], latest_message_timestamp: at, last_customer_message_at: { [phone.org_phone]: at } })
    .go();
}

/** Ask for an upload and PUT `bytes` to it. */
async function upload(token: string, filename: string, mimetype: string, bytes: Buffer): Promise<BroadcastUploadResponse> {
  const up = await rt.orgCall<BroadcastUploadResponse>(token, 'POST', '/broadcasts/uploads', { filename, mimetype, size: bytes.length });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const put = await fetch(`${rt.url}${up.body.upload_url}`, { method: 'PUT', headers: up.body.headers, body: new Uint8Array(bytes) });
  expect(put.status).toBe(200);
  return up.body;
}

let photo: Buffer;
beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  for (const n of [1, 2, 3, 4]) await seedChat(n);
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } }).png().toBuffer();
}, 120_000);
afterAll(async () => {
  await rt?.cleanup();
});

describe('uploading a file for a broadcast', () => {
  it('refuses a type WhatsApp cannot send and a file over the type’s limit (400 with the field)', async () => {
    const gif = await rt.orgCall<Err>(admin, 'POST', '/broadcasts/uploads', { filename: 'party.gif', mimetype: 'image/gif', size: 1000 });
    expect(gif.status).toBe(400);
    expect(gif.body.error.details[0]).toMatchObject({ field: 'mimetype', reason: expect.stringContaining('is not a file type WhatsApp can send') });
    const big = await rt.orgCall<Err>(admin, 'POST', '/broadcasts/uploads', { filename: 'huge.png', mimetype: 'image/png', size: 5 * 1024 * 1024 + 1 });
    expect(big.status).toBe(400);
    expect(big.body.error.details[0]).toEqual({ field: 'size', reason: 'is larger than WhatsApp allows (5 MB for images)' });
    const empty = await rt.orgCall<Err>(admin, 'POST', '/broadcasts/uploads', { filename: 'x.png', mimetype: 'image/png', size: 0 });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details[0]).toEqual({ field: 'size', reason: 'is an empty file' });
    const noName = await rt.orgCall<Err>(admin, 'POST', '/broadcasts/uploads', { mimetype: 'image/png', size: 10 });
    expect(noName.status).toBe(400);
    expect(noName.body.error.details[0]).toEqual({ field: 'filename', reason: 'is required' });
  });

  it('refuses an upload id that is unknown, never uploaded, not what it claims, or given with a library file', async () => {
    const audience = { kind: 'chats', chat_ids: [chatOf(1)] };
    const preview = (media: unknown) => rt.orgCall<Err>(admin, 'POST', '/broadcasts/preview', { audience, content: { body: 'x', media } });
    const malformed = await preview({ upload_id: 'nope' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details[0]).toEqual({ field: 'content.media.upload_id', reason: 'is not an upload id from POST /broadcasts/uploads' });
    const unknown = await preview({ upload_id: 'bup_01HZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0]!.field).toBe('content.media.upload_id');
    expect(unknown.body.error.details[0]!.reason).toContain('is not a file uploaded for this workspace');
    const asked = await rt.orgCall<BroadcastUploadResponse>(admin, 'POST', '/broadcasts/uploads', { filename: 'later.png', mimetype: 'image/png', size: 100 });
    const notPut = await preview({ upload_id: asked.body.upload_id });
    expect(notPut.status).toBe(400);
    expect(notPut.body.error.details[0]).toEqual({ field: 'content.media.upload_id', reason: 'was not uploaded, or the upload expired; please attach the file again' });
    const fake = await upload(admin, 'fake.png', 'image/png', Buffer.from('this is plain text, not a PNG at all'));
    const liar = await preview({ upload_id: fake.upload_id });
    expect(liar.status).toBe(400);
    expect(liar.body.error.details[0]).toMatchObject({ field: 'content.media.upload_id', reason: expect.stringContaining('is not the image it claims to be') });
    const both = await preview({ upload_id: fake.upload_id, chat_id: chatOf(1), unique_id: 'x' });
    expect(both.status).toBe(400);
    expect(both.body.error.details[0]!.field).toBe('content.media.upload_id');
  });

  it('a member without bulk_message cannot upload (403); another org’s upload id is unknown here', async () => {
    await rt.orgCall(admin, 'PUT', '/settings/permissions', { member_permissions: { bulk_message: false } });
    forgetOrgPreferences(rt.orgId);
    const r = await rt.orgCall<Err>(member, 'POST', '/broadcasts/uploads', { filename: 'a.png', mimetype: 'image/png', size: 10 });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('broadcast.forbidden');
    await rt.orgCall(admin, 'PUT', '/settings/permissions', { member_permissions: { bulk_message: true } });
    forgetOrgPreferences(rt.orgId);
    expect((await rt.orgCall(member, 'POST', '/broadcasts/uploads', { filename: 'a.png', mimetype: 'image/png', size: 10 })).status).toBe(201);
    // a row of another org under the same id: looked up in the caller's org only
    const other = await upload(admin, 'mine.png', 'image/png', photo);
    const row = (await db().entities.broadcastUpload.get({ org_id: rt.orgId, upload_id: other.upload_id }).go()).data!;
    await db().entities.broadcastUpload.put({ ...row, org_id: 'org_someone_else', upload_id: 'bup_01J0000000000000000000000A' }).go();
    const p = await rt.orgCall<Err>(admin, 'POST', '/broadcasts/preview', { audience: { kind: 'chats', chat_ids: [chatOf(1)] }, content: { body: 'x', media: { upload_id: 'bup_01J0000000000000000000000A' } } });
    expect(p.status).toBe(400);
    expect(p.body.error.details[0]!.field).toBe('content.media.upload_id');
  });
});

describe('sending an uploaded file', () => {
  it('upload -> preview -> create: every recipient gets the file once, uploaded to the Graph API once for the number', async () => {
    const file = await upload(admin, 'Spring sale.png', 'image/png', photo);
    expect(file).toMatchObject({ filename: 'Spring sale.png', message_type: 'image', size: photo.length });
    const chat_ids = [1, 2, 3].map(chatOf);
    const content = { body: 'New in, {{name}}', media: { upload_id: file.upload_id } };
    const p = await rt.orgCall<BroadcastPreview>(admin, 'POST', '/broadcasts/preview', { audience: { kind: 'chats', chat_ids }, content });
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    expect(p.body).toMatchObject({ total: 3, to_send: 3 });
    const row = (await db().entities.broadcastUpload.get({ org_id: rt.orgId, upload_id: file.upload_id }).go()).data!;
    expect(row).toMatchObject({ status: 'ready', mimetype: 'image/png', size: photo.length, thumbnail: expect.stringMatching(/_broadcasts\/up-.*thumbnail/) });

    const uploadsBefore = rt.graph.uploads.length;
    const r = await rt.orgCall<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Spring', audience: { kind: 'chats', chat_ids }, content, options: { pace_ms: 20 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.broadcast.content.media).toEqual({ upload_id: file.upload_id });
    const id = r.body.broadcast.broadcast_id;
    await eventually(async () => (await rt.orgCall<{ broadcast: Broadcast }>(admin, 'GET', `/broadcasts/${id}`)).body.broadcast.status === 'completed', 20_000, 'the broadcast completes');
    await rt.idle();
    expect((await rt.orgCall<{ broadcast: Broadcast }>(admin, 'GET', `/broadcasts/${id}`)).body.broadcast.stats).toMatchObject({ sent: 3, failed: 0 });

    const uploads = rt.graph.uploads.slice(uploadsBefore);
    expect(uploads).toHaveLength(1);
    expect(Buffer.compare(uploads[0]!.bytes, photo)).toBe(0);
    expect(uploads[0]).toMatchObject({ filename: 'Spring sale.png', type: 'image/png' });
    for (const n of [1, 2, 3]) {
      const to = chatOf(n).split('@')[0]!;
      const sends = rt.graph.sent.filter((x) => x.wamid && (x.body as { to?: string }).to === to);
      expect(sends).toHaveLength(1);
      expect(sends[0]!.body).toMatchObject({ type: 'image', image: { id: uploads[0]!.id, caption: `New in, Customer ${n}` } });
    }
    // the next broadcast on the same number reuses the media id: no new upload
    const again = await rt.orgCall<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Spring 2', audience: { kind: 'chats', chat_ids: [chatOf(4)] }, content, options: { pace_ms: 20 } });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    await eventually(async () => (await rt.orgCall<{ broadcast: Broadcast }>(admin, 'GET', `/broadcasts/${again.body.broadcast.broadcast_id}`)).body.broadcast.status === 'completed', 20_000, 'the second broadcast completes');
    await rt.idle();
    expect(rt.graph.uploads.length - uploadsBefore).toBe(1);
    const fourth = rt.graph.sent.filter((x) => x.wamid && (x.body as { to?: string }).to === chatOf(4).split('@')[0]);
    expect(fourth).toHaveLength(1);
    expect(fourth[0]!.body).toMatchObject({ type: 'image', image: { id: uploads[0]!.id } });
  });

  it('a WhatsApp Web recipient’s message carries the stored file (its session reads it from the blob store)', async () => {
    const p = await seedWaWebPhone(rt.orgId, 'waweb-bup-1', '15557770900');
    await db().entities.chat.create({ org_id: rt.orgId, chat_id: '15550009999@c.us', chat_type: 'user', chat_name: 'Web customer', org_phone: p.org_phone, phone_id: p.phone_id, chat_org_phones: [p.org_phone], latest_message_timestamp: Date.now() }).go();
    const doc = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const file = await upload(admin, 'price list.pdf', 'application/pdf', doc);
    const uploadsBefore = rt.graph.uploads.length;
    const r = await rt.orgCall<{ broadcast: Broadcast }>(admin, 'POST', '/broadcasts', { name: 'Prices', audience: { kind: 'chats', chat_ids: ['15550009999@c.us'] }, content: { body: 'Our prices', media: { upload_id: file.upload_id } }, options: { pace_ms: 20 } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const msg = await eventually(async () => {
      const rows = (await db().entities.message.query.byChat({ org_id: rt.orgId, chat_id: '15550009999@c.us' }).go()).data;
      return rows.find((x) => x.message_type === 'document');
    }, 20_000, 'the message is stored');
    expect(msg.body).toBe('Our prices');
    expect(msg.media).toMatchObject({ filename: 'price list.pdf', path: expect.stringContaining('/_broadcasts/up-'), size: doc.length, status: 'stored' });
    expect((msg.media as { media_id?: string }).media_id).toBeUndefined();
    expect(rt.graph.uploads.length).toBe(uploadsBefore); // nothing goes to the Graph API for a WhatsApp Web number
  });
});
