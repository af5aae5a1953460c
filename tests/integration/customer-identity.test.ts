import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { envelope, newWamid } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { opaqueChatIdFor, opaqueContactIdFor } from '../../shared/contact/opaque-id.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { ContactDetail } from '../../shared/contact/contact.schemas.ts';

/**
 * Issue 41: customers identified by business-scoped user ids (BSUID) since April 2026, with or
 * without their number, against the real local runtime: signed 2026 webhook shapes in, one chat
 * per person whatever identifiers a webhook carries, nothing doubled, identity changes keep the
 * chat, statuses by `recipient_user_id`, and the contact's identifiers with their history.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
/** message timestamps (unix s): an hour ago and on, inside the 24-hour window */
let seq = Math.floor(Date.now() / 1000) - 3600;

type Sender = { wa_id?: string; user_id?: string; parent_user_id?: string; name?: string; username?: string };

/** A 2026 `messages` body: `contacts[]` with the identifiers given, `from` only with a number, `from_user_id` with a BSUID. */
function body(s: Sender, message: Record<string, unknown>) {
  const contact = { ...(s.wa_id ? { wa_id: s.wa_id } : {}), ...(s.user_id ? { user_id: s.user_id } : {}), ...(s.parent_user_id ? { parent_user_id: s.parent_user_id } : {}), profile: { ...(s.name ? { name: s.name } : {}), ...(s.username ? { username: s.username } : {}) } };
  return JSON.stringify(envelope(rt.phone, { contacts: [contact], messages: [{ ...(s.wa_id ? { from: s.wa_id } : {}), ...(s.user_id ? { from_user_id: s.user_id } : {}), id: newWamid(), timestamp: String(seq++), ...message }] }));
}
const text = (s: Sender, t: string) => body(s, { type: 'text', text: { body: t } });

async function post(raw: string): Promise<void> {
  expect((await rt.postWebhook(raw)).status).toBe(200);
  await rt.idle();
}
async function messagesOf(chatId: string, token = admin): Promise<Message[]> {
  const r = await rt.orgCall<{ messages: Message[] }>(token, 'GET', `/chats/${encodeURIComponent(chatId)}/messages?limit=100`);
  expect(r.status).toBe(200);
  return r.body.messages;
}
async function chatOf(chatId: string, token = admin): Promise<Chat> {
  const r = await rt.orgCall<{ chat: Chat }>(token, 'GET', `/chats/${encodeURIComponent(chatId)}`);
  expect(r.status).toBe(200);
  return r.body.chat;
}
const chatRow = async (chatId: string) => (await db().entities.chat.get({ org_id: rt.orgId, chat_id: chatId }).go()).data;

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  member = await rt.signIn(rt.memberEmail);
});
afterAll(async () => rt?.cleanup());

describe('a username user whose number WhatsApp withholds', () => {
  const ana: Sender = { user_id: 'BR.17730000000000000001', username: '@ana' };

  it('gets a chat with an opaque id, named by the username; a redelivery is not doubled', async () => {
    const raw = text(ana, 'Oi, meu pedido chegou?');
    await post(raw);
    await post(raw); // Meta's retry of the same body
    const chatId = opaqueChatIdFor(ana.user_id!);
    const chat = await chatOf(chatId);
    expect(chat).toMatchObject({ chat_type: 'user', chat_name: '@ana', identity: { user_id: ana.user_id, username: '@ana' } });
    expect(chat.identity?.wa_id ?? null).toBeNull();
    const msgs = await messagesOf(chatId);
    expect(msgs.map((m) => m.body)).toEqual(['Oi, meu pedido chegou?']);
    expect(msgs[0]!.sender_phone ?? null).toBeNull();
    const contact = (await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${opaqueContactIdFor(ana.user_id!)}`)).body;
    expect(contact.contact).toMatchObject({ phone: null, numbers: [], user_ids: [ana.user_id], username: '@ana' });
    expect(contact.chats.map((c) => c.chat_id)).toEqual([chatId]);
    expect(contact.identifiers).toEqual([expect.objectContaining({ kind: 'bsuid', value: ana.user_id, replaced_by: null })]);
  });

  it('a message with neither a number nor a BSUID is kept as a rejection with its reason, not dropped', async () => {
    const raw = JSON.stringify(envelope(rt.phone, { messages: [{ id: newWamid(), timestamp: String(seq++), type: 'text', text: { body: 'who am I' } }] }));
    await post(raw);
    const kept = await db().entities.webhookRejection.query.byOrg({ org_id: rt.orgId }).go({ order: 'desc', limit: 5 });
    expect(kept.data.some((r) => r.raw_body.includes('who am I') && /from or from_user_id/.test(r.reason))).toBe(true);
  });
});

describe('one person, one chat, whatever a webhook carries', () => {
  it('phone, then phone + BSUID, then BSUID alone land in the number chat', async () => {
    const bea: Sender = { wa_id: '5511988881111', user_id: 'BR.17730000000000000002', name: 'Bea' };
    await post(text({ wa_id: bea.wa_id, name: 'Bea' }, 'one'));
    await post(text(bea, 'two'));
    await post(text({ user_id: bea.user_id }, 'three'));
    const chatId = `${bea.wa_id}@c.us`;
    expect((await messagesOf(chatId)).map((m) => m.body).sort()).toEqual(['one', 'three', 'two']);
    expect(await chatRow(opaqueChatIdFor(bea.user_id!))).toBeNull();
    expect((await chatOf(chatId)).identity).toMatchObject({ wa_id: bea.wa_id, user_id: bea.user_id });
    const c = (await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${bea.wa_id}`)).body;
    expect(c.contact.user_ids).toEqual([bea.user_id]);
    expect(c.identifiers.map((i) => i.kind).sort()).toEqual(['bsuid', 'phone']);
  });

  it('BSUID alone, then phone + BSUID: the opaque chat stays and learns the number; a later phone-only message joins it', async () => {
    const caio: Sender = { wa_id: '5511977772222', user_id: 'BR.17730000000000000003', username: '@caio', name: 'Caio' };
    await post(text({ user_id: caio.user_id, username: '@caio' }, 'first'));
    await post(text(caio, 'second'));
    await post(text({ wa_id: caio.wa_id, name: 'Caio' }, 'third'));
    const chatId = opaqueChatIdFor(caio.user_id!);
    expect((await messagesOf(chatId)).map((m) => m.body).sort()).toEqual(['first', 'second', 'third']);
    expect(await chatRow(`${caio.wa_id}@c.us`)).toBeNull();
    expect((await chatOf(chatId)).identity).toMatchObject({ wa_id: caio.wa_id, user_id: caio.user_id, username: '@caio' });
    const c = (await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${opaqueContactIdFor(caio.user_id!)}`)).body;
    expect(c.contact).toMatchObject({ phone: caio.wa_id, numbers: [caio.wa_id], username: '@caio' });
  });

  it('a number and a BSUID first seen apart are one person once a webhook shows both: the contacts merge (with undo)', async () => {
    const dani: Sender = { wa_id: '5511966663333', user_id: 'BR.17730000000000000004' };
    await post(text({ wa_id: dani.wa_id, name: 'Dani' }, 'by number'));
    await post(text({ user_id: dani.user_id, username: '@dani' }, 'by id'));
    await post(text(dani, 'both'));
    const survivor = opaqueContactIdFor(dani.user_id!);
    const merged = (await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${survivor}`)).body;
    expect(merged.contact.merged_ids).toEqual([dani.wa_id]);
    expect(merged.chats.map((c) => c.chat_id).sort()).toEqual([`${dani.wa_id}@c.us`, opaqueChatIdFor(dani.user_id!)].sort());
    const undo = await rt.orgCall(admin, 'POST', `/contacts/${survivor}/unmerge`, { other_contact_id: dani.wa_id });
    expect(undo.status).toBe(200);
  });
});

describe('identity changes keep the chat', () => {
  it('user_changed_user_id: a system line, the new BSUID finds the same chat, the old one shows as replaced', async () => {
    const eli: Sender = { user_id: 'BR.17730000000000000005', username: '@eli' };
    const next = 'BR.17730000000000000006';
    await post(text(eli, 'hello'));
    await post(body(eli, { type: 'system', system: { type: 'user_changed_user_id', body: 'User changed their id', new_user_id: next } }));
    await post(text({ user_id: next, username: '@eli' }, 'after the change'));
    const chatId = opaqueChatIdFor(eli.user_id!);
    const msgs = await messagesOf(chatId);
    expect(msgs.map((m) => m.body)).toEqual(expect.arrayContaining(['hello', 'The customer’s WhatsApp user id changed.', 'after the change']));
    expect(msgs.find((m) => m.message_type === 'system')).toBeTruthy();
    expect(await chatRow(opaqueChatIdFor(next))).toBeNull();
    const chat = await chatOf(chatId);
    expect(chat.identity?.user_id).toBe(next);
    const c = (await rt.orgCall<ContactDetail>(admin, 'GET', `/contacts/${opaqueContactIdFor(eli.user_id!)}`)).body;
    expect(c.identifiers).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'bsuid', value: eli.user_id, replaced_by: next }), expect.objectContaining({ kind: 'bsuid', value: next, replaced_by: null })]));
    expect(c.contact.user_ids.at(-1)).toBe(next);
  });

  it('user_changed_number: the new number writes into the same chat', async () => {
    const fio: Sender = { wa_id: '5511955554444', user_id: 'BR.17730000000000000007', name: 'Fio' };
    await post(text(fio, 'old number'));
    await post(body({ wa_id: fio.wa_id }, { type: 'system', system: { type: 'user_changed_number', body: `Fio changed from ${fio.wa_id} to 5511955550000`, new_wa_id: '5511955550000' } }));
    await post(text({ wa_id: '5511955550000', name: 'Fio' }, 'new number'));
    const chatId = `${fio.wa_id}@c.us`;
    expect((await messagesOf(chatId)).map((m) => m.body)).toEqual(expect.arrayContaining(['old number', 'new number', 'The customer changed their phone number.']));
    expect(await chatRow('5511955550000@c.us')).toBeNull();
    expect((await chatOf(chatId)).identity?.wa_id).toBe('5511955550000');
  });

  it('a contact request reply shares the number: it is attached to the identity', async () => {
    const gil: Sender = { user_id: 'BR.17730000000000000008', username: '@gil' };
    await post(text(gil, 'hi'));
    await post(body(gil, { type: 'contacts', contacts: [{ origin: 'contact_request', name: { formatted_name: 'Gil' }, phones: [{ phone: '+55 11 94444-5555', wa_id: '5511944445555', type: 'CELL' }] }] }));
    expect((await chatOf(opaqueChatIdFor(gil.user_id!))).identity?.wa_id).toBe('5511944445555');
    await post(text({ wa_id: '5511944445555' }, 'from the number'));
    expect((await messagesOf(opaqueChatIdFor(gil.user_id!))).some((m) => m.body === 'from the number')).toBe(true);
  });
});

describe('statuses by recipient_user_id', () => {
  it('move the tick of a reply', async () => {
    const hal: Sender = { wa_id: '5511933336666', user_id: 'BR.17730000000000000009', name: 'Hal' };
    await post(text(hal, 'hi'));
    const chatId = `${hal.wa_id}@c.us`;
    const sent = await rt.orgCall<{ message: Message }>(admin, 'POST', `/chats/${encodeURIComponent(chatId)}/messages`, { body: 'hello Hal' });
    expect(sent.status).toBe(201);
    await rt.idle();
    const wamid = (await messagesOf(chatId)).find((m) => m.unique_id === sent.body.message.unique_id)!.message_id!;
    await post(JSON.stringify(envelope(rt.phone, { statuses: [{ id: wamid, status: 'delivered', timestamp: String(seq++), recipient_user_id: hal.user_id }] })));
    expect((await messagesOf(chatId)).find((m) => m.unique_id === sent.body.message.unique_id)!.ack).toBe(2);
    await post(JSON.stringify(envelope(rt.phone, { statuses: [{ id: wamid, status: 'failed', timestamp: String(seq++), recipient_user_id: hal.user_id, errors: [{ code: 131026, title: 'Message undeliverable' }] }] })));
    await rt.idle();
  });
});

describe('masking (mask_phone_numbers on, a member)', () => {
  it('the chat identity and the contact identifiers hide the number; the BSUID and username show', async () => {
    const ivo: Sender = { wa_id: '5511922227777', user_id: 'BR.17730000000000000010', username: '@ivo' };
    await post(text(ivo, 'hi'));
    expect((await rt.orgCall(admin, 'PUT', '/settings/permissions', { mask_phone_numbers: true })).status).toBe(200);
    try {
      const chat = await chatOf(`${ivo.wa_id}@c.us`, member);
      expect(chat.identity).toMatchObject({ user_id: ivo.user_id, username: '@ivo' });
      expect(chat.identity?.wa_id).not.toContain('922227');
      const list = await rt.orgCall(member, 'GET', '/contacts?q=ivo');
      expect(JSON.stringify(list.body)).not.toContain(ivo.wa_id);
    } finally {
      await rt.orgCall(admin, 'PUT', '/settings/permissions', { mask_phone_numbers: false });
    }
  });
});
