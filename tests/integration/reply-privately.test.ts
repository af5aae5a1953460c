import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { PrivateQuote } from '../../shared/message/reply-privately.ts';

/**
 * Reply Privately (spec §5) over HTTP: a group member's message opens (or creates) the 1:1 chat
 * with that member on the group's number; the send stores the group quote for the team but sends
 * WhatsApp the text without a cross-conversation context; the spec §5 refusals; other orgs.
 */
let rt: TestRuntime;
let admin: string;
let outsider: string;
const group = 'G4455@g.us';
const enc = encodeURIComponent;

const call = <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown) => rt.orgCall<T>(token, method, path, json);
const messages = async (chat: string) => (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages;
type ReplyOut = { chat: Chat; created: boolean; quote: PrivateQuote; error?: { code: string; message: string } };
const replyPrivately = (chat: string, uniqueId: string, token = admin) => call<ReplyOut>(token, 'POST', `/chats/${enc(chat)}/messages/${uniqueId}/reply-privately`);

/** A group message from `from` (Cloud API groups: `group_id` on the inbound message, whatsapp-protocols.md A.11). */
function groupText(from: string, name: string, body: string) {
  const payload = inboundText(rt.phone, from, body, { name });
  const value = payload.entry[0]!.changes[0]!.value as unknown as { messages: Array<Record<string, unknown>> };
  value.messages[0]!.group_id = 'G4455';
  return payload;
}

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@private.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@private.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '999000555', display_phone_number: '15559990000' } });
  [admin, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(outsiderEmail)]);
  await rt.postWebhook(groupText('15559990011', 'Grace', 'Can someone call me about my invoice?'));
  await rt.postWebhook(groupText('15559990012', 'Linus', 'Same question here'));
  // Linus also writes 1:1 (his chat exists and its 24-hour window is open)
  await rt.postWebhook(inboundText(rt.phone, '15559990012', 'hello directly', { name: 'Linus' }));
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

describe('reply privately', () => {
  it("creates the 1:1 chat with the member on the group's number and returns the group quote", async () => {
    const src = (await messages(group)).find((m) => m.sender_phone === '15559990011')!;
    const r = await replyPrivately(group, src.unique_id);
    expect(r.status).toBe(201);
    expect(r.body.created).toBe(true);
    expect(r.body.chat).toMatchObject({ chat_id: '15559990011@c.us', chat_type: 'user', chat_name: 'Grace', org_phone: rt.phone.display_phone_number });
    expect(r.body.quote).toEqual({ message_id: src.message_id, unique_id: src.unique_id, body: 'Can someone call me about my invoice?', author: 'Grace', from_me: false, chat_id: group, chat_name: null });
    // the new chat is a real chat of the org
    expect((await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc('15559990011@c.us')}`)).status).toBe(200);
    // asking again finds it
    const again = await replyPrivately(group, src.unique_id);
    expect([again.status, again.body.created, again.body.chat.chat_id]).toEqual([200, false, '15559990011@c.us']);
  });

  it('the send stores the group quote; WhatsApp gets the text without a cross-chat context', async () => {
    const src = (await messages(group)).find((m) => m.sender_phone === '15559990012')!;
    const r = await replyPrivately(group, src.unique_id);
    expect([r.status, r.body.created]).toEqual([200, false]);
    const before = rt.graph.sent.length;
    const sent = await call<{ message: Message }>(admin, 'POST', `/chats/${enc('15559990012@c.us')}/messages`, { body: 'I will call you now', quoted_message_id: r.body.quote.message_id, quoted_chat_id: group });
    expect(sent.status).toBe(201);
    expect(sent.body.message.quoted_message).toMatchObject({ message_id: src.message_id, unique_id: src.unique_id, chat_id: group, body: 'Same question here', author: 'Linus' });
    await rt.idle();
    const out = rt.graph.sent.slice(before).map((s) => s.body);
    expect(out).toEqual([{ messaging_product: 'whatsapp', recipient_type: 'individual', to: '15559990012', type: 'text', text: { body: 'I will call you now', preview_url: false } }].map((b) => expect.objectContaining({ to: b.to, type: 'text', text: expect.objectContaining({ body: b.text.body }) })));
    expect((out[0] as { context?: unknown }).context).toBeUndefined();
  });

  it("refuses a quote that is not that group's message from this customer", async () => {
    const src = (await messages(group)).find((m) => m.sender_phone === '15559990011')!;
    const wrongChat = await call<{ error: { details: Array<{ field: string; reason: string }> } }>(admin, 'POST', `/chats/${enc('15559990012@c.us')}/messages`, { body: 'x', quoted_message_id: src.message_id, quoted_chat_id: group });
    expect(wrongChat.status).toBe(400);
    expect(wrongChat.body.error.details).toEqual([{ field: 'quoted_message_id', reason: 'was not written by this chat’s customer' }]);
    const notGroup = await call(admin, 'POST', `/chats/${enc('15559990012@c.us')}/messages`, { body: 'x', quoted_message_id: src.message_id, quoted_chat_id: '15559990012@c.us' });
    expect(notGroup.status).toBe(400);
  });

  it('refuses user chats and our own messages (spec §5); other orgs get a 404', async () => {
    const direct = (await messages('15559990012@c.us')).find((m) => !m.from_me)!;
    const r = await replyPrivately('15559990012@c.us', direct.unique_id);
    expect([r.status, r.body.error?.code, r.body.error?.message]).toEqual([400, 'message.reply_privately_refused', 'Reply privately is for group messages.']);
    const src = (await messages(group))[0]!;
    expect((await rt.api(outsider, `/api/orgs/${rt.orgId}/chats/${enc(group)}/messages/${src.unique_id}/reply-privately`, { method: 'POST' })).status).toBe(404);
  });
});
