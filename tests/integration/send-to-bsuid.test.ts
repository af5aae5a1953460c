import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { serveGraphStandIn } from '../factories/graph-standin.ts';
import { eventually } from '../factories/wait.ts';
import { db } from '../../shared/db/service.ts';
import { commitTransaction } from '../../shared/db/transaction.ts';
import { chatWriteItems, counterItems, type ChatRow } from '../../shared/chat/chat-write.ts';
import type { CustomerIdentity } from '../../shared/contact/identity.rules.ts';
import { opaqueChatIdFor } from '../../shared/contact/opaque-id.ts';
import { PHONE_NUMBER_NEEDED } from '../../shared/chat/send-target.rules.ts';
import { sendMessage } from '../../shared/inbox/send.ts';
import { GraphStandIn, type SentRecord } from '../../scripts/local/graph-standin.ts';
import { STANDIN_TEMPLATES } from '../../scripts/local/graph-templates.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { TemplateView } from '../../shared/template/template.schemas.ts';

/**
 * Sending to a customer known only by their business-scoped user id (issue 41 item 4; Meta
 * "Business-scoped user IDs": since May 2026 the send body takes `recipient` with the BSUID when
 * no number is known, `to` wins when both are present, authentication templates still need a
 * number). Against the real local runtime: the chats are stored the way the write path stores them
 * (the ingest of a username user's first message may not exist yet), replies go through the HTTP
 * API and the outbound queue, and the Graph stand-in shows what WhatsApp would have received.
 */
let rt: TestRuntime;
let admin: string;
let seq = 0;
const enc = encodeURIComponent;

/** An AUTHENTICATION template in Meta's listing shape (copy-code OTP button). */
const VERIFY_CODE = {
  id: '1220000000000099',
  name: 'verify_code',
  language: 'en_US',
  status: 'APPROVED',
  category: 'AUTHENTICATION',
  parameter_format: 'POSITIONAL',
  components: [
    { type: 'BODY', text: '*{{1}}* is your verification code.', add_security_recommendation: true, example: { body_text: [['123456']] } },
    { type: 'FOOTER', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
    { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
  ],
};

const bsuid = () => `BR.1773000000000000${String(++seq).padStart(4, '0')}`;

/** Store a 1:1 chat the way the write path does, its customer's last message an hour ago (window open). */
async function seedChat(chatId: string, identity?: CustomerIdentity): Promise<void> {
  const phone = (await db().entities.phone.query.byOrg({ org_id: rt.orgId }).go()).data.find((p) => p.phone_id === rt.phone.phone_number_id)!;
  const at = Date.now() - 3600_000;
  const row = {
    org_id: rt.orgId,
    chat_id: chatId,
    chat_name: identity?.username ?? `Customer ${seq}`,
    chat_type: 'user',
    org_phone: phone.org_phone,
    phone_id: phone.phone_id,
    chat_org_phones: [phone.org_phone],
    latest_message_timestamp: at,
    latest_message: { unique_id: `u${chatId}`, body: 'Hi there', message_type: 'text', from_me: false, ack: 0, timestamp: at },
    last_customer_message_at: { [phone.org_phone]: at },
    message_unread_count: 0,
    unread_count: {},
    ...(identity ? { identity } : {}),
  } as unknown as ChatRow;
  const ok = await commitTransaction((e) => {
    const w = chatWriteItems(e, null, row, Date.now());
    return [...w.items, ...counterItems(e, rt.orgId, w.deltas)];
  });
  expect(ok).toBe(true);
}

/** The Graph request that carried this message (matched by its callback data, which names the message). */
const graphSendOf = (m: Message, accepted = true) =>
  eventually(async () => rt.graph.sent.find((s) => String((s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data ?? '').includes(m.unique_id) && (!accepted || s.wamid)), 10_000, `the Graph send of ${m.unique_id}`);

const sendText = (chatId: string, body: string) => rt.orgCall<{ message: Message }>(admin, 'POST', `/chats/${enc(chatId)}/messages`, { body });
const stored = async (chatId: string, uniqueId: string) => (await rt.orgCall<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chatId)}/messages`)).body.messages.find((m) => m.unique_id === uniqueId);

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  rt.graph.setTemplates([...STANDIN_TEMPLATES, VERIFY_CODE]);
  const sync = await rt.orgCall<{ results: Array<{ synced: number }> }>(admin, 'POST', '/templates/sync', { phone_id: rt.phone.phone_number_id });
  expect(sync.status).toBe(200);
});
afterAll(async () => rt?.cleanup());

describe('replies to a customer known only by BSUID', () => {
  it('a text reply goes out with recipient (the BSUID) and no to, and gets its wamid', async () => {
    const userId = bsuid();
    const chatId = opaqueChatIdFor(userId);
    await seedChat(chatId, { user_id: userId, username: '@ana' });
    const r = await sendText(chatId, 'Hello Ana');
    expect(r.status).toBe(201);
    const sent = await graphSendOf(r.body.message);
    const { biz_opaque_callback_data: _cb, ...body } = sent.body as Record<string, unknown>;
    expect(body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', recipient: userId, type: 'text', text: { preview_url: false, body: 'Hello Ana' } });
    expect(body).not.toHaveProperty('to');
    await eventually(async () => (await stored(chatId, r.body.message.unique_id))?.message_id === sent.wamid);
  });

  it('a chat whose number is known still sends to the number, even when it carries a BSUID', async () => {
    const chatId = '15550420001@c.us';
    await seedChat(chatId, { wa_id: '15550420001', user_id: bsuid() });
    const r = await sendText(chatId, 'Hello by number');
    expect(r.status).toBe(201);
    const body = (await graphSendOf(r.body.message)).body as Record<string, unknown>;
    expect(body).toMatchObject({ recipient_type: 'individual', to: '15550420001' });
    expect(body).not.toHaveProperty('recipient');
  });

  it('a row written before identity existed sends to the number of its id', async () => {
    const chatId = '15550420002@c.us';
    await seedChat(chatId);
    const r = await sendText(chatId, 'Hello, old row');
    const body = (await graphSendOf(r.body.message)).body as Record<string, unknown>;
    expect(body).toMatchObject({ to: '15550420002' });
    expect(body).not.toHaveProperty('recipient');
  });

  it('an opaque chat whose number became known sends to the number (Meta: prefer the number)', async () => {
    const userId = bsuid();
    const chatId = opaqueChatIdFor(userId);
    await seedChat(chatId, { user_id: userId, wa_id: '15550420003' });
    const r = await sendText(chatId, 'Now we have your number');
    const body = (await graphSendOf(r.body.message)).body as Record<string, unknown>;
    expect(body).toMatchObject({ to: '15550420003', recipient_type: 'individual' });
    expect(body).not.toHaveProperty('recipient');
  });

  it('a retried send (queued without a target) reads the chat and still uses recipient', async () => {
    const userId = bsuid();
    const chatId = opaqueChatIdFor(userId);
    await seedChat(chatId, { user_id: userId });
    rt.graph.failNext(131026);
    const r = await sendText(chatId, 'First try fails');
    await eventually(async () => (await stored(chatId, r.body.message.unique_id))?.ack === -1);
    const retry = await rt.orgCall(admin, 'POST', `/chats/${enc(chatId)}/messages/${r.body.message.unique_id}/retry`);
    expect(retry.status).toBe(200);
    const sends = await eventually(async () => {
      const all = rt.graph.sent.filter((s) => String((s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data ?? '').includes(r.body.message.unique_id));
      return all.length === 2 && all[1]!.wamid ? all : null;
    });
    for (const s of sends) {
      expect(s.body).toMatchObject({ recipient: userId });
      expect(s.body).not.toHaveProperty('to');
    }
  });

  it('a reaction to a message of that chat goes out with recipient too', async () => {
    const userId = bsuid();
    const chatId = opaqueChatIdFor(userId);
    await seedChat(chatId, { user_id: userId });
    const r = await sendText(chatId, 'React to me');
    await graphSendOf(r.body.message);
    await eventually(async () => (await stored(chatId, r.body.message.unique_id))?.message_id);
    const before = rt.graph.sent.length;
    const react = await rt.orgCall(admin, 'POST', `/chats/${enc(chatId)}/messages/${r.body.message.unique_id}/reaction`, { reaction: '👍' });
    expect(react.status).toBe(202);
    const sent = await eventually(async () => rt.graph.sent.slice(before).find((s): s is SentRecord => (s.body as { type?: string }).type === 'reaction' && !!s.wamid));
    expect(sent.body).toMatchObject({ recipient_type: 'individual', recipient: userId, type: 'reaction', reaction: { emoji: '👍' } });
    expect(sent.body).not.toHaveProperty('to');
  });
});

describe('templates to a customer known only by BSUID', () => {
  it('a utility template goes out with recipient', async () => {
    const userId = bsuid();
    const chatId = opaqueChatIdFor(userId);
    await seedChat(chatId, { user_id: userId });
    const r = await rt.orgCall<{ message: Message }>(admin, 'POST', `/chats/${enc(chatId)}/templates`, { name: 'appointment_reminder', language: 'en_US', values: { 'body.1': 'Ana', 'body.2': 'Tuesday 3 pm' } });
    expect(r.status).toBe(201);
    const body = (await graphSendOf(r.body.message)).body as Record<string, unknown>;
    expect(body).toMatchObject({ recipient_type: 'individual', recipient: userId, type: 'template', template: { name: 'appointment_reminder' } });
    expect(body).not.toHaveProperty('to');
  });

  it('an authentication template is refused with a 400 naming the field, in plain words, and nothing is stored or sent', async () => {
    const listed = await rt.orgJson<{ templates: TemplateView[] }>(admin, `/templates?phone_id=${rt.phone.phone_number_id}`);
    expect(listed.templates.find((t) => t.name === 'verify_code')?.category).toBe('AUTHENTICATION');
    const userId = bsuid();
    const chatId = opaqueChatIdFor(userId);
    await seedChat(chatId, { user_id: userId });
    const before = rt.graph.sent.length;
    const r = await rt.orgCall<{ error: { code: string; message: string; details: Array<{ field: string; reason: string }> } }>(admin, 'POST', `/chats/${enc(chatId)}/templates`, { name: 'verify_code', language: 'en_US', values: { 'body.1': '123456' } });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('template.phone_number_required');
    expect(r.body.error.message).toBe(PHONE_NUMBER_NEEDED);
    expect(r.body.error.details).toEqual([{ field: 'template.name', reason: expect.stringMatching(/authentication template.*phone number/) }]);
    await rt.idle();
    expect(rt.graph.sent.length).toBe(before);
    const messages = (await rt.orgCall<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chatId)}/messages`)).body.messages;
    expect(messages.filter((m) => m.from_me)).toEqual([]);
  });

  it('an authentication template to a chat with a number is accepted', async () => {
    const chatId = '15550420009@c.us';
    await seedChat(chatId, { wa_id: '15550420009', user_id: bsuid() });
    const r = await rt.orgCall<{ message: Message }>(admin, 'POST', `/chats/${enc(chatId)}/templates`, { name: 'verify_code', language: 'en_US', values: { 'body.1': '123456' } });
    expect(r.status).toBe(201);
    const body = (await graphSendOf(r.body.message, false)).body as Record<string, unknown>;
    expect(body).toMatchObject({ to: '15550420009', type: 'template', template: { name: 'verify_code' } });
  });

  it('one that only meets the missing number at delivery is marked failed with the reason, and never reaches WhatsApp', async () => {
    const userId = bsuid();
    const chatId = opaqueChatIdFor(userId);
    await seedChat(chatId, { user_id: userId });
    const actor = { email: rt.adminEmail, user_id: rt.adminEmail, org_id: rt.orgId, role: 'admin' as const };
    const template = { name: 'verify_code', language: 'en_US', parameter_format: 'POSITIONAL' as const, category: 'AUTHENTICATION', components: VERIFY_CODE.components as TemplateView['components'], values: { 'body.1': '123456' } };
    // a send requested without the request-time check (as a broadcast or a schedule would)
    const m = await sendMessage(actor, chatId, { body: '123456 is your verification code.' }, { template });
    const failed = await eventually(async () => {
      const s = await stored(chatId, m.unique_id);
      return s?.ack === -1 ? s : null;
    });
    expect(failed.delivery_error).toMatchObject({ code: null, reason: PHONE_NUMBER_NEEDED });
    expect(rt.graph.sent.filter((s) => String((s.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data ?? '').includes(m.unique_id))).toEqual([]);
  });
});

describe('the Graph stand-in addresses like Meta', () => {
  const post = (url: string, body: unknown, auth = 'Bearer t') =>
    fetch(`${url}/v21.0/106540352242922/messages`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = { messaging_product: 'whatsapp', recipient_type: 'individual', type: 'text', text: { body: 'hi' } };

  it('accepts recipient (a BSUID) and answers contacts[{ input, user_id }]; to wins when both are present; neither is a 400 code 100', async () => {
    const standIn = new GraphStandIn();
    const served = await serveGraphStandIn(() => standIn);
    try {
      const byBsuid = await post(served.url, { ...text, recipient: 'BR.17730000000000000001' });
      expect(byBsuid.status).toBe(200);
      const j = (await byBsuid.json()) as { messaging_product: string; contacts: unknown[]; messages: Array<{ id: string }> };
      expect(j).toMatchObject({ messaging_product: 'whatsapp', contacts: [{ input: 'BR.17730000000000000001', user_id: 'BR.17730000000000000001' }] });
      expect(j.contacts[0]).not.toHaveProperty('wa_id');
      expect(j.messages[0]!.id).toMatch(/^wamid\./);
      expect(standIn.sent.at(-1)).toMatchObject({ wamid: j.messages[0]!.id, body: { recipient: 'BR.17730000000000000001' } });

      const both = (await (await post(served.url, { ...text, to: '+15550001', recipient: 'BR.17730000000000000001' })).json()) as { contacts: unknown[] };
      expect(both.contacts).toEqual([{ input: '+15550001', wa_id: '15550001' }]);

      const neither = await post(served.url, text);
      expect(neither.status).toBe(400);
      expect(((await neither.json()) as { error: { code: number; type: string } }).error).toMatchObject({ code: 100, type: 'OAuthException' });

      // the /__graph page shows whom each send addressed
      const page = await (await fetch(`${served.url}/`)).text();
      expect(page).toContain('recipient BR.17730000000000000001');
    } finally {
      await served.close();
    }
  });

  it('refuses an authentication template to a BSUID with 131062, like Meta', async () => {
    const standIn = new GraphStandIn();
    standIn.setTemplates([VERIFY_CODE]);
    const served = await serveGraphStandIn(() => standIn);
    try {
      const tpl = { messaging_product: 'whatsapp', recipient_type: 'individual', type: 'template', template: { name: 'verify_code', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: '123456' }] }] } };
      const r = await post(served.url, { ...tpl, recipient: 'BR.17730000000000000001' });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: { code: number } }).error.code).toBe(131062);
    } finally {
      await served.close();
    }
  });
});
