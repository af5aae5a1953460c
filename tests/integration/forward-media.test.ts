import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundImage, inboundMedia, inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Forwarding media (issue 5 'Forward'): an inbound photo is re-sent from its stored file to two
 * chats (uploaded again for the number, sent by id with its caption, marked forwarded); our own
 * upload's media id is reused on the same number; what cannot be forwarded is refused with the
 * reason; other orgs get a 404.
 */
let rt: TestRuntime;
let admin: string;
let outsider: string;
let photo: Buffer;
const chatA = '15558880001@c.us';
const chatB = '15558880002@c.us';
const chatC = '15558880003@c.us';
const enc = encodeURIComponent;

const call = <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown) => rt.orgCall<T>(token, method, path, json);
const messages = async (chat: string) => (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages;
type ForwardResult = { messages: Message[]; failed: Array<{ chat_id: string; reason: string }>; error?: { code: string; message: string } };
const forward = (chat: string, uniqueId: string, chatIds: string[], token = admin) => call<ForwardResult>(token, 'POST', `/chats/${enc(chat)}/messages/${uniqueId}/forward`, { chat_ids: chatIds });

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@forward.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@forward.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '888000555', display_phone_number: '15558880000' } });
  [admin, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(outsiderEmail)]);
  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } }).jpeg().toBuffer();
  rt.graph.addMedia('fwd-photo-1', photo, 'image/jpeg');
  await rt.postWebhook(inboundImage(rt.phone, '15558880001', { id: 'fwd-photo-1', caption: 'The receipt' }));
  // the other chats' customers wrote too (their 24-hour windows are open)
  await rt.postWebhook(inboundText(rt.phone, '15558880002', 'hi'));
  await rt.postWebhook(inboundText(rt.phone, '15558880003', 'hello'));
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

describe('forward media', () => {
  it('re-sends an inbound photo from its stored file to two chats, by a fresh upload, with its caption', async () => {
    const src = (await messages(chatA)).find((m) => m.message_type === 'image')!;
    expect(src.media?.status).toBe('stored');
    const uploadsBefore = rt.graph.uploads.length;
    const sentBefore = rt.graph.sent.length;
    const r = await forward(chatA, src.unique_id, [chatB, chatC]);
    expect(r.status).toBe(201);
    expect(r.body.failed).toEqual([]);
    expect(r.body.messages.map((m) => [m.chat_id, m.message_type, m.forwarded, m.body, m.media?.path, m.media?.thumbnail])).toEqual([
      [chatB, 'image', 'forwarded', 'The receipt', src.media!.path, src.media!.thumbnail],
      [chatC, 'image', 'forwarded', 'The receipt', src.media!.path, src.media!.thumbnail],
    ]);
    await rt.idle();
    // the customer's media id is never reused: one upload per copy, of the stored bytes
    const uploads = rt.graph.uploads.slice(uploadsBefore);
    expect(uploads).toHaveLength(2);
    for (const u of uploads) expect(Buffer.compare(u.bytes, photo)).toBe(0);
    const sent = rt.graph.sent.slice(sentBefore).filter((s) => (s.body as { type?: string }).type === 'image');
    // the two copies are sent in parallel: match them by recipient, not by order
    const byTo = new Map(sent.map((s) => [(s.body as { to: string }).to, s]));
    expect([...byTo.keys()].sort()).toEqual(['15558880002', '15558880003']);
    for (const s of sent) expect(s.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: (s.body as { to: string }).to, type: 'image', image: { id: expect.any(String), caption: 'The receipt' }, biz_opaque_callback_data: expect.stringMatching(/^chorus1\|/) });
    expect(sent.map((s) => (s.body as { image: { id: string } }).image.id).sort()).toEqual(uploads.map((u) => u.id).sort());
    const toB = byTo.get('15558880002')!;
    const copy = (await messages(chatB)).find((m) => m.unique_id === r.body.messages[0]!.unique_id)!;
    expect(copy).toMatchObject({ message_id: toB.wamid, forwarded: 'forwarded', media: { media_id: (toB.body as { image: { id: string } }).image.id } });
    // the copy is in the media library like any stored file
    const lib = await call<{ items: Array<{ unique_id: string }> }>(admin, 'GET', `/media?chat_id=${enc(chatB)}`);
    expect(lib.body.items.map((i) => i.unique_id)).toContain(copy.unique_id);
  });

  it("reuses our own upload's media id on the same number (no second upload)", async () => {
    const copy = (await messages(chatB)).find((m) => m.message_type === 'image' && m.from_me)!;
    const uploadsBefore = rt.graph.uploads.length;
    const sentBefore = rt.graph.sent.length;
    const r = await forward(chatB, copy.unique_id, [chatC]);
    expect(r.status).toBe(201);
    await rt.idle();
    expect(rt.graph.uploads.length).toBe(uploadsBefore);
    const sent = rt.graph.sent.slice(sentBefore).filter((s) => (s.body as { type?: string }).type === 'image');
    expect((sent[0]!.body as { image: { id: string } }).image.id).toBe(copy.media!.media_id);
  });

  it('forwarded text is marked forwarded too', async () => {
    const text = (await messages(chatB)).find((m) => m.message_type === 'text')!;
    const r = await forward(chatB, text.unique_id, [chatC]);
    expect(r.body.messages[0]).toMatchObject({ chat_id: chatC, body: 'hi', forwarded: 'forwarded' });
  });

  it('refuses a file that is not stored and a sticker, with the reason; other orgs get a 404', async () => {
    rt.graph.addMedia('fwd-sticker', photo, 'image/webp');
    await rt.postWebhook(inboundMedia(rt.phone, '15558880001', 'sticker', { id: 'fwd-sticker', mime_type: 'image/webp' }));
    await rt.postWebhook(inboundMedia(rt.phone, '15558880001', 'video', { id: 'fwd-missing', mime_type: 'video/mp4' }));
    await rt.idle();
    const all = await messages(chatA);
    const sticker = all.find((m) => m.message_type === 'sticker')!;
    const video = all.find((m) => m.message_type === 'video')!;
    const s = await forward(chatA, sticker.unique_id, [chatB]);
    expect([s.status, s.body.error?.code, s.body.error?.message]).toEqual([400, 'message.forward_refused', 'Stickers cannot be forwarded.']);
    const v = await forward(chatA, video.unique_id, [chatB]);
    expect([v.status, v.body.error?.message]).toEqual([400, 'The file of this message is not stored yet, so it cannot be forwarded.']);
    const src = all.find((m) => m.message_type === 'image')!;
    expect((await rt.api(outsider, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}/messages/${src.unique_id}/forward`, { method: 'POST', json: { chat_ids: [chatB] } })).status).toBe(404);
  });
});
