import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { inboundMessage, inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { applyInboundDelete, applyInboundEdit, onDeleteResult, onEditResult } from '../../shared/message/message-edit.ts';
import { captureWaWebCommands, customerWrites, seedSentMessage, seedWaWebPhone, type WaWebPhone } from '../factories/wa-web.ts';
import { eventually } from '../factories/wait.ts';
import { db } from '../../shared/db/service.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Edit and delete for everyone (issue 5 items 3 and 4, spec §5 and §8) over HTTP on the local
 * runtime, on a linked WhatsApp Web number ('wa_web'): the message changes at once (pending), the
 * command goes to the number's session (captured here: the test plays the session worker and
 * reports results through onEditResult / onDeleteResult), a refused result reverts it; the windows
 * at 15:01 and 48:01 (messages written at a chosen age); Cloud API numbers refused; another org
 * refused; edits and deletes made on WhatsApp applied through applyInboundEdit / applyInboundDelete;
 * live updates over the socket.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
let web: WaWebPhone;
let wa: ReturnType<typeof captureWaWebCommands>;
const customer = '15558880001';
const chat = `${customer}@c.us`;
const cloudChat = '15558880009@c.us';
const enc = encodeURIComponent;
const MIN = 60_000;
const HOUR = 60 * MIN;

type ApiError = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const call = <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown) => rt.orgCall<T>(token, method, path, json);
const msgPath = (c: string, id: string) => `/chats/${enc(c)}/messages/${id}`;
const edit = (token: string, c: string, id: string, body: unknown) => call<{ message: Message } & ApiError>(token, 'PATCH', msgPath(c, id), body);
const del = (token: string, c: string, id: string) => call<{ message: Message } & ApiError>(token, 'DELETE', msgPath(c, id));
const getMessage = async (c: string, id: string) => (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(c)}/messages?limit=200`)).body.messages.find((m) => m.unique_id === id)!;
const getChat = async (c: string) => (await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(c)}`)).body.chat;
const sent = (body: string, ageMs = MIN) => seedSentMessage(web, chat, body, { at: Date.now() - ageMs, author: rt.memberEmail });

function connect(token: string): Promise<{ ws: WebSocket; events: Array<{ type: string; properties: { message?: Message; chat?: Chat } }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${enc(token)}&org_id=${enc(rt.orgId)}`);
    const events: Array<{ type: string; properties: { message?: Message; chat?: Chat } }> = [];
    ws.on('message', (d) => events.push(JSON.parse(String(d))));
    ws.on('open', () => resolve({ ws, events }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
  });
}

beforeAll(async () => {
  rt = await startTestRuntime();
  wa = captureWaWebCommands(rt);
  const outsiderEmail = 'outsider@edit.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@edit.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '888000555', display_phone_number: '15558880000' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  web = await seedWaWebPhone(rt.orgId, 'waweb-edit-1', '15558887777');
  await customerWrites(web, customer, 'Can I change my delivery address?', { name: 'Grace Hopper', at: Date.now() - 5 * MIN });
  await rt.postWebhook(inboundText(rt.phone, '15558880009', 'Hello from the Cloud API'));
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

describe('edit (wa_web number)', () => {
  it('replaces the body at once (pending, previous body kept), hands the session an edit command, and is confirmed by its result', async () => {
    const m = await sent('See you at 5pm');
    const sock = await connect(admin);
    try {
      const r = await edit(member, chat, m.unique_id, { body: 'See you at 6pm' });
      expect(r.status).toBe(202);
      expect(r.body.message).toMatchObject({ body: 'See you at 6pm', edit_status: 'pending', edit_history: [{ body: 'See you at 5pm', edited_by: rt.memberEmail }] });
      const editedAt = r.body.message.edited_at!;
      expect(editedAt).toBeGreaterThan(m.timestamp);
      const cmd = wa.take('edit');
      expect(cmd).toEqual({ kind: 'edit', org_id: rt.orgId, phone_id: web.phone_id, chat_id: chat, unique_id: m.unique_id, message_id: m.message_id, body: 'See you at 6pm', requested_by: rt.memberEmail, requested_at: editedAt });
      // another member's screen gets it live
      await eventually(async () => sock.events.some((e) => e.type === 'message.updated' && e.properties.message?.unique_id === m.unique_id && e.properties.message.body === 'See you at 6pm'), 10_000, 'message.updated over the socket');
      // it was the chat's latest message: the chat row's preview follows
      expect((await getChat(chat)).latest_message).toMatchObject({ unique_id: m.unique_id, body: 'See you at 6pm' });

      expect(await onEditResult(cmd, { ok: true, at_ms: Date.now() })).toBe(true);
      expect(await getMessage(chat, m.unique_id)).toMatchObject({ body: 'See you at 6pm', edit_status: 'sent', edited_at: editedAt });
      // at-least-once: the same result again changes nothing
      expect(await onEditResult(cmd, { ok: true, at_ms: Date.now() })).toBe(false);
      await eventually(async () => sock.events.some((e) => e.type === 'message.updated' && e.properties.message?.unique_id === m.unique_id && e.properties.message.edit_status === 'sent'), 10_000, 'the confirmation over the socket');
    } finally {
      sock.ws.close();
    }
  });

  it('a result WhatsApp refused reverts the edit and says why', async () => {
    const m = await sent('Your order ships Monday');
    const r = await edit(member, chat, m.unique_id, { body: 'Your order ships Tuesday' });
    expect(r.status).toBe(202);
    const cmd = wa.take('edit');
    expect(await onEditResult(cmd, { ok: false, reason: 'WhatsApp did not accept the edit.', retryable: false })).toBe(true);
    const after = await getMessage(chat, m.unique_id);
    expect(after).toMatchObject({ body: 'Your order ships Monday', edit_status: 'failed', edit_history: [], edit_error: { body: 'Your order ships Tuesday', reason: 'WhatsApp did not accept the edit.' } });
    expect(after.edited_at ?? null).toBeNull();
    expect((await getChat(chat)).latest_message?.body).toBe('Your order ships Monday');
  });

  it('refuses a second edit while the first is on its way (409), and the same text again changes nothing', async () => {
    const m = await sent('Meeting at noon');
    expect((await edit(member, chat, m.unique_id, { body: 'Meeting at 1pm' })).status).toBe(202);
    const cmd = wa.take('edit');
    const again = await edit(member, chat, m.unique_id, { body: 'Meeting at 2pm' });
    expect([again.status, again.body.error.code]).toEqual([409, 'message.edit_pending']);
    await onEditResult(cmd, { ok: true, at_ms: Date.now() });
    const same = await edit(member, chat, m.unique_id, { body: 'Meeting at 1pm' });
    expect(same.status).toBe(202);
    expect(wa.commands.filter((c) => c.kind === 'edit')).toHaveLength(0);
  });

  it('allows 14:59 after sending and refuses 15:01 with the rule’s reason', async () => {
    const early = await sent('Almost too late', 15 * MIN - 1000);
    expect((await edit(member, chat, early.unique_id, { body: 'Edited in time' })).status).toBe(202);
    wa.take('edit');
    const late = await sent('Too late', 15 * MIN + 1000);
    const r = await edit(member, chat, late.unique_id, { body: 'Edited too late' });
    expect([r.status, r.body.error.code, r.body.error.message]).toEqual([400, 'message.edit_refused', 'Messages can be edited only within 15 minutes.']);
    expect((await getMessage(chat, late.unique_id)).body).toBe('Too late');
    expect(wa.commands).toHaveLength(0);
  });

  it('refuses a customer’s message, bad input with the field, and answers 503 (reverted) when the session queue is down', async () => {
    const inbound = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages?limit=200`)).body.messages.find((m) => !m.from_me)!;
    const r = await edit(member, chat, inbound.unique_id, { body: 'x' });
    expect([r.status, r.body.error.message]).toEqual([400, 'Only your own sent messages can be edited.']);
    const m = await sent('Queue test');
    const bad = await edit(member, chat, m.unique_id, { body: '   ' });
    expect([bad.status, bad.body.error.details]).toEqual([400, [{ field: 'body', reason: 'must not be empty' }]]);
    wa.fail = true;
    try {
      const down = await edit(member, chat, m.unique_id, { body: 'Queue test 2' });
      expect(down.status).toBe(503);
    } finally {
      wa.fail = false;
    }
    expect(await getMessage(chat, m.unique_id)).toMatchObject({ body: 'Queue test', edit_status: 'failed' });
  });
});

describe('delete for everyone (wa_web number)', () => {
  it('marks it deleted at once (body kept for the team), hands the session a delete command, and is confirmed by its result', async () => {
    const m = await sent('Wrong price: $10');
    const r = await del(member, chat, m.unique_id);
    expect(r.status).toBe(202);
    expect(r.body.message).toMatchObject({ is_deleted: true, deleted_by: rt.memberEmail, delete_status: 'pending', body: 'Wrong price: $10' });
    expect((await getChat(chat)).latest_message).toMatchObject({ unique_id: m.unique_id, is_deleted: true });
    const cmd = wa.take('delete');
    expect(cmd).toEqual({ kind: 'delete', org_id: rt.orgId, phone_id: web.phone_id, chat_id: chat, unique_id: m.unique_id, message_id: m.message_id, requested_by: rt.memberEmail, requested_at: r.body.message.deleted_at });
    expect(await onDeleteResult(cmd, { ok: true, at_ms: Date.now() })).toBe(true);
    expect(await getMessage(chat, m.unique_id)).toMatchObject({ is_deleted: true, delete_status: 'sent', body: 'Wrong price: $10' });
    expect(await onDeleteResult(cmd, { ok: true, at_ms: Date.now() })).toBe(false);
    // deleted already: refused with the rule's reason
    const again = await del(member, chat, m.unique_id);
    expect([again.status, again.body.error.message]).toEqual([400, 'This message was deleted.']);
    // nor can it be edited any more
    expect((await edit(member, chat, m.unique_id, { body: 'x' })).status).toBe(400);
  });

  it('a result WhatsApp refused undoes the delete and says why', async () => {
    const m = await sent('Keep me');
    expect((await del(member, chat, m.unique_id)).status).toBe(202);
    const cmd = wa.take('delete');
    expect(await onDeleteResult(cmd, { ok: false, reason: 'The number is not connected.', retryable: false })).toBe(true);
    const after = await getMessage(chat, m.unique_id);
    expect(after).toMatchObject({ is_deleted: false, delete_status: 'failed', delete_error: { reason: 'The number is not connected.' }, body: 'Keep me' });
    expect(after.deleted_at ?? null).toBeNull();
    expect((await getChat(chat)).latest_message).toMatchObject({ unique_id: m.unique_id, is_deleted: false, body: 'Keep me' });
  });

  it('allows 47:59 after sending and refuses 48:01 with spec §8’s words', async () => {
    const early = await sent('Two days ago, nearly', 48 * HOUR - MIN);
    expect((await del(member, chat, early.unique_id)).status).toBe(202);
    wa.take('delete');
    const late = await sent('Over two days ago', 48 * HOUR + MIN);
    const r = await del(member, chat, late.unique_id);
    expect([r.status, r.body.error.code, r.body.error.message]).toEqual([400, 'message.delete_refused', 'Cannot delete messages older than 48 hrs']);
    expect((await getMessage(chat, late.unique_id)).is_deleted).toBeFalsy();
    expect(wa.commands).toHaveLength(0);
  });
});

describe('refusals', () => {
  it('a Cloud API number can neither edit nor delete for everyone', async () => {
    const inbound = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(cloudChat)}/messages`)).body.messages[0]!;
    const cloud = { org_id: rt.orgId, phone_id: rt.phone.phone_number_id, org_phone: rt.phone.display_phone_number };
    const ours = await seedSentMessage(cloud, cloudChat, 'Sent through the Cloud API', { at: Date.now() - MIN });
    const e = await edit(admin, cloudChat, ours.unique_id, { body: 'changed' });
    expect([e.status, e.body.error.message]).toEqual([400, 'This number cannot edit sent messages.']);
    const d = await del(admin, cloudChat, inbound.unique_id);
    expect([d.status, d.body.error.message]).toEqual([400, 'This number cannot delete messages for everyone.']);
    expect(wa.commands).toHaveLength(0);
  });

  it('a member of another org is refused (404) and nothing changes', async () => {
    const m = await sent('Private to our org');
    const e = await edit(outsider, chat, m.unique_id, { body: 'hacked' });
    const d = await del(outsider, chat, m.unique_id);
    expect([e.status, d.status]).toEqual([404, 404]);
    expect(await getMessage(chat, m.unique_id)).toMatchObject({ body: 'Private to our org', is_deleted: false });
    expect(wa.commands).toHaveLength(0);
  });

  it('a member the chat’s access does not list is refused (403); a private note sent to this route is deleted as a note', async () => {
    const other = '15558880002';
    await customerWrites(web, other, 'Restricted chat', { name: 'Restricted' });
    const restricted = `${other}@c.us`;
    const m = await seedSentMessage(web, restricted, 'Admins only here', { at: Date.now() - MIN });
    await db().entities.chat.patch({ org_id: rt.orgId, chat_id: restricted }).set({ chat_access: { [rt.adminEmail]: true } }).go();
    const e = await edit(member, restricted, m.unique_id, { body: 'x' });
    const d = await del(member, restricted, m.unique_id);
    expect([e.status, e.body.error.message, d.status]).toEqual([403, 'You do not have access to this chat', 403]);
    const note = (await call<{ message: Message }>(admin, 'POST', `/chats/${enc(chat)}/notes`, { body: 'Internal: call back at 5' })).body.message;
    const r = await del(admin, chat, note.unique_id);
    expect(r.status).toBe(202);
    expect(r.body.message).toMatchObject({ unique_id: note.unique_id, is_private_note: true, is_deleted: true, body: null });
    expect(wa.commands).toHaveLength(0);
  });

  it('a message that is not there is a 404', async () => {
    expect((await del(member, chat, '01HZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
  });
});

describe('edits and deletes made on WhatsApp (the session worker calls these)', () => {
  it('an inbound edit replaces the body, keeps the old one and is idempotent', async () => {
    const id = await customerWrites(web, customer, 'My address is 1 Main St', { name: 'Grace Hopper' });
    const uid = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages.find((m) => m.message_id === id)!.unique_id;
    const at = Date.now();
    const e = { org_id: rt.orgId, phone_id: web.phone_id, chat_id: chat, message_id: id, body: 'My address is 2 Main St', at_ms: at, from: { chat_id: chat, sender: customer, from_me: false } };
    expect(await applyInboundEdit(e)).toBe('applied');
    expect(await getMessage(chat, uid)).toMatchObject({ body: 'My address is 2 Main St', edited_at: at, edit_history: [{ body: 'My address is 1 Main St', edited_at: at, edited_by: `whatsapp:${customer}` }] });
    expect((await getChat(chat)).latest_message).toMatchObject({ unique_id: uid, body: 'My address is 2 Main St' });
    expect(await applyInboundEdit(e)).toBe('duplicate');
    expect(await applyInboundEdit({ ...e, body: 'an older edit', at_ms: at - 1000 })).toBe('stale');
    expect(await applyInboundEdit({ ...e, message_id: 'NOT-KNOWN' })).toBe('unknown');
    expect((await getMessage(chat, uid)).edit_history).toHaveLength(1);
  });

  it('an inbound delete marks the message deleted and never removes it', async () => {
    const id = await customerWrites(web, customer, 'Oops, wrong chat', { name: 'Grace Hopper' });
    const uid = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages.find((m) => m.message_id === id)!.unique_id;
    const at = Date.now();
    const from = { chat_id: chat, sender: customer, from_me: false };
    expect(await applyInboundDelete({ org_id: rt.orgId, phone_id: web.phone_id, chat_id: chat, message_id: id, at_ms: at, from })).toBe('applied');
    expect(await getMessage(chat, uid)).toMatchObject({ is_deleted: true, deleted_at: at, deleted_by: `whatsapp:${customer}`, body: 'Oops, wrong chat' });
    expect(await applyInboundDelete({ org_id: rt.orgId, phone_id: web.phone_id, chat_id: chat, message_id: id, at_ms: at, from })).toBe('duplicate');
  });

  it('a Cloud API edit notice (unsupported, type edit) carries no reference, so it stays its own unsupported message', async () => {
    const before = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(cloudChat)}/messages`)).body.messages;
    const edited = before.find((m) => m.body === 'Hello from the Cloud API')!;
    // Meta's "Unsupported messages webhook reference": from, id, timestamp, errors, unsupported.type — nothing about the edited message
    const notice = inboundMessage(rt.phone, { from: '15558880009', type: 'unsupported', fields: { unsupported: { type: 'edit' }, errors: [{ code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } }] } });
    expect((await rt.postWebhook(notice)).status).toBe(200);
    await rt.idle();
    const after = (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(cloudChat)}/messages`)).body.messages;
    expect(after).toHaveLength(before.length + 1);
    expect(after.find((m) => m.message_type === 'unsupported')).toMatchObject({ content: { unsupported: { type: 'edit' } } });
    expect(after.find((m) => m.unique_id === edited.unique_id)).toMatchObject({ body: 'Hello from the Cloud API' });
    expect(after.find((m) => m.unique_id === edited.unique_id)!.edited_at ?? null).toBeNull();
  });

  it('our own delete echoed back by WhatsApp confirms it', async () => {
    const m = await sent('Echo me');
    const r = await del(member, chat, m.unique_id);
    wa.take('delete');
    expect(await applyInboundDelete({ org_id: rt.orgId, phone_id: web.phone_id, chat_id: chat, message_id: m.message_id!, at_ms: Date.now(), from: { chat_id: chat, sender: web.org_phone, from_me: true } })).toBe('duplicate');
    expect(await getMessage(chat, m.unique_id)).toMatchObject({ is_deleted: true, delete_status: 'sent', deleted_at: r.body.message.deleted_at });
  });
});
