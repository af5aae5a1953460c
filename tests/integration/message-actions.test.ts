import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Message actions over HTTP on the local runtime with the Graph API stand-in: reactions (Meta's
 * body, sent then acknowledged; refused by WhatsApp -> reverted with the reason), flags answered
 * by a reply, pins with expiry, refresh, forward, the spec §5 refusals and other orgs.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
const chatA = '15556660001@c.us';
const chatB = '15556660002@c.us';
let inbound: Message;
const enc = encodeURIComponent;

type Json = Record<string, unknown>;
const call = async <T = Json>(token: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const msgPath = (chat: string, id: string, action: string) => `/chats/${enc(chat)}/messages/${id}/${action}`;
const getMessage = async (chat: string, id: string) => (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages.find((m) => m.unique_id === id)!;
const getChat = async (chat: string) => (await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(chat)}`)).body.chat;

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@actions.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@actions.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '666000555', display_phone_number: '15556660000' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  await rt.postWebhook(inboundText(rt.phone, '15556660001', 'Is my order shipped?'));
  await rt.postWebhook(inboundText(rt.phone, '15556660002', 'Hello there'));
  await rt.idle();
  inbound = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chatA)}/messages`)).body.messages[0]!;
});
afterAll(async () => rt?.cleanup());

describe('reactions', () => {
  it("shows ours at once, sends Meta's reaction body, then marks it sent", async () => {
    const before = rt.graph.sent.length;
    const r = await call<{ message: Message }>(member, 'POST', msgPath(chatA, inbound.unique_id, 'reaction'), { reaction: '👍' });
    expect(r.status).toBe(202);
    expect(r.body.message.reactions?.[rt.phone.display_phone_number]).toMatchObject({ reaction: '👍', by: rt.memberEmail, ack: 0 });
    await rt.idle();
    const sent = rt.graph.sent.slice(before);
    expect(sent.map((s) => s.body)).toEqual([{ messaging_product: 'whatsapp', recipient_type: 'individual', to: '15556660001', type: 'reaction', reaction: { message_id: inbound.message_id, emoji: '👍' } }]);
    expect((await getMessage(chatA, inbound.unique_id)).reactions?.[rt.phone.display_phone_number]).toMatchObject({ reaction: '👍', ack: 1 });
  });

  it('a reaction WhatsApp refuses is put back as it was, with the reason', async () => {
    rt.graph.failNext(131009);
    await call(member, 'POST', msgPath(chatA, inbound.unique_id, 'reaction'), { reaction: '❤️' });
    await rt.idle();
    const m = await getMessage(chatA, inbound.unique_id);
    expect(m.reactions?.[rt.phone.display_phone_number]).toMatchObject({ reaction: '👍', ack: 1 });
    expect(m.reaction_error).toMatchObject({ reaction: '❤️', reason: expect.stringContaining('WhatsApp refused') });
  });

  it('an empty reaction removes ours', async () => {
    const before = rt.graph.sent.length;
    await call(member, 'POST', msgPath(chatA, inbound.unique_id, 'reaction'), { reaction: '' });
    await rt.idle();
    expect((rt.graph.sent.at(-1)!.body as { reaction: { emoji: string } }).reaction.emoji).toBe('');
    expect(rt.graph.sent.length - before).toBe(1);
    expect((await getMessage(chatA, inbound.unique_id)).reactions?.[rt.phone.display_phone_number]).toBeUndefined();
  });

  it('refuses a message not yet on WhatsApp, and bad input, with reasons', async () => {
    rt.graph.failNext(131026);
    const mine = (await call<{ message: Message }>(member, 'POST', `/chats/${enc(chatB)}/messages`, { body: 'will fail' })).body.message;
    await rt.idle();
    const r = await call<{ error: { code: string; message: string } }>(member, 'POST', msgPath(chatB, mine.unique_id, 'reaction'), { reaction: '👍' });
    expect([r.status, r.body.error.code, r.body.error.message]).toEqual([400, 'message.react_refused', 'This message has not reached WhatsApp yet.']);
    expect((await call(member, 'POST', msgPath(chatA, inbound.unique_id, 'reaction'), {})).status).toBe(400);
    expect((await call(member, 'POST', msgPath(chatA, '01HZZZZZZZZZZZZZZZZZZZZZZZ', 'reaction'), { reaction: '👍' })).status).toBe(404);
  });
});

describe('flags', () => {
  it('flagging marks the chat as needing a reply until a member answers', async () => {
    const f = await call<{ message: Message; chat: Chat }>(admin, 'PUT', msgPath(chatA, inbound.unique_id, 'flag'), { flag_status: true });
    expect(f.status).toBe(200);
    expect(f.body.message).toMatchObject({ flag_status: true, flag_metadata: { status: true, flagged_by: rt.adminEmail } });
    expect(f.body.chat.flag_count_map).toEqual({ [rt.phone.display_phone_number]: 1 });
    const again = await call<{ error: { message: string } }>(admin, 'PUT', msgPath(chatA, inbound.unique_id, 'flag'), { flag_status: true });
    expect([again.status, again.body.error.message]).toEqual([400, 'Already flagged.']);
    await call(member, 'POST', `/chats/${enc(chatA)}/messages`, { body: 'Yes, it shipped today' });
    await rt.idle();
    expect(await getMessage(chatA, inbound.unique_id)).toMatchObject({ flag_status: false, flag_metadata: { status: false, responded_by: rt.memberEmail } });
    expect((await getChat(chatA)).flag_count_map).toEqual({});
    const removed = await call<{ message: Message }>(admin, 'PUT', msgPath(chatA, inbound.unique_id, 'flag'), { flag_status: null });
    expect(removed.body.message.flag_status ?? null).toBeNull();
    expect((await call(admin, 'PUT', msgPath(chatA, inbound.unique_id, 'flag'), { flag_status: 'yes' })).status).toBe(400);
  });
});

describe('pins, refresh, forward', () => {
  it('pins for 24 hours, lists it on the chat, unpins', async () => {
    const p = await call<{ message: Message; chat: Chat }>(member, 'PUT', msgPath(chatA, inbound.unique_id, 'pin'), { pin: true, duration: '24h' });
    expect(p.status).toBe(200);
    expect(p.body.message.pinned_until! - Date.now()).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(p.body.chat.pinned_messages?.[inbound.unique_id]).toMatchObject({ pinned_by: rt.memberEmail, body: 'Is my order shipped?' });
    const u = await call<{ message: Message; chat: Chat }>(member, 'PUT', msgPath(chatA, inbound.unique_id, 'pin'), { pin: false });
    expect(u.body.chat.pinned_messages).toEqual({});
    expect((await call(member, 'PUT', msgPath(chatA, inbound.unique_id, 'pin'), { pin: false })).status).toBe(400);
    expect((await call(member, 'PUT', msgPath(chatA, inbound.unique_id, 'pin'), { pin: true, duration: '1y' })).status).toBe(400);
  });

  it('refresh returns delivery info of our message; a customer message has none', async () => {
    const mine = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chatA)}/messages`)).body.messages.find((m) => m.from_me && !!m.message_id)!;
    const r = await call<{ message: Message }>(admin, 'POST', msgPath(chatA, mine.unique_id, 'refresh'));
    expect(r.body.message.delivery_info).toMatchObject({ pending: expect.any(Number) });
    expect((await call(admin, 'POST', msgPath(chatA, inbound.unique_id, 'refresh'))).status).toBe(400);
  });

  it('forwards a text to another chat through WhatsApp; refuses chats of other orgs', async () => {
    const before = rt.graph.sent.length;
    const r = await call<{ messages: Message[] }>(member, 'POST', msgPath(chatA, inbound.unique_id, 'forward'), { chat_ids: [chatB] });
    expect(r.status).toBe(201);
    expect(r.body.messages.map((m) => [m.chat_id, m.body])).toEqual([[chatB, 'Is my order shipped?']]);
    await rt.idle();
    expect(rt.graph.sent.slice(before).map((s) => (s.body as { to: string }).to)).toEqual(['15556660002']);
    expect((await call(member, 'POST', msgPath(chatA, inbound.unique_id, 'forward'), { chat_ids: ['15556669999@c.us'] })).status).toBe(404);
    expect((await call(member, 'POST', msgPath(chatA, inbound.unique_id, 'forward'), { chat_ids: [] })).status).toBe(400);
  });
});

describe('other orgs', () => {
  it('every message action is refused outside the caller’s org', async () => {
    for (const [method, action, json] of [
      ['POST', 'reaction', { reaction: '👍' }],
      ['PUT', 'flag', { flag_status: true }],
      ['PUT', 'pin', { pin: true }],
      ['POST', 'refresh', undefined],
      ['POST', 'forward', { chat_ids: [chatB] }],
    ] as const) {
      const r = await rt.api(outsider, `/api/orgs/${rt.orgId}${msgPath(chatA, inbound.unique_id, action)}`, { method, json });
      expect(r.status, action).toBe(404);
    }
    expect((await getMessage(chatA, inbound.unique_id)).pinned_until ?? null).toBeNull();
  });
});
