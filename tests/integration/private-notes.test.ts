import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { eventually } from '../factories/wait.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { ListNotificationsResponse } from '../../shared/notification/notification.schemas.ts';

/**
 * Private notes with @mentions and in-app notifications (issue 4) over HTTP and WebSocket on the
 * local runtime: a note is stored but never queued for WhatsApp and leaves the chat row alone;
 * mentions are checked and notify only the mentioned member (list, unread count, read, and only
 * their socket); only the author deletes (a tombstone stays); chat access and other orgs.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
const chatA = '15557770001@c.us';
const chatB = '15557770002@c.us';
const enc = encodeURIComponent;

type Json = Record<string, unknown>;
type ApiError = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const call = async <T = Json>(token: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: T }> => {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, json });
  return { status: r.status, body: (await r.json()) as T };
};
const notesPath = (chat: string, id?: string) => `/chats/${enc(chat)}/notes${id ? `/${id}` : ''}`;
const messagesOf = async (chat: string) => (await call<{ messages: Message[] }>(admin, 'GET', `/chats/${enc(chat)}/messages`)).body.messages;
const chatRow = async (chat: string) => (await call<{ chat: Chat }>(admin, 'GET', `/chats/${enc(chat)}`)).body.chat;
const notificationsOf = async (token: string) => (await call<ListNotificationsResponse>(token, 'GET', '/notifications')).body;

type Socket = { ws: WebSocket; events: Array<{ type: string; properties: Record<string, unknown> }> };
function connect(token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${enc(token)}&org_id=${enc(rt.orgId)}`);
    const events: Socket['events'] = [];
    ws.on('message', (d) => events.push(JSON.parse(String(d))));
    ws.on('open', () => resolve({ ws, events }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
  });
}

/** Count what reaches the WhatsApp outbound queue (a note must never). */
let outboundSends = 0;

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@notes.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  await seedDemo({ orgName: 'Other Co', admin: { email: outsiderEmail, sub, name: 'Outsider' }, member: { email: 'm2@notes.chorus', sub: 'x', name: 'M2' }, phone: { phone_number_id: '777000555', display_phone_number: '15557770000' } });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  const outbound = rt.queues.get('whatsapp-outbound')!;
  const send = outbound.send.bind(outbound);
  outbound.send = (body: string) => {
    outboundSends++;
    return send(body);
  };
  await rt.postWebhook(inboundText(rt.phone, '15557770001', 'Where is my parcel?'));
  await rt.postWebhook(inboundText(rt.phone, '15557770002', 'Private chat'));
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

describe('writing a note', () => {
  it('stores a private note that never reaches WhatsApp and leaves the chat row as it was', async () => {
    const before = await chatRow(chatA);
    const [graphBefore, outboundBefore] = [rt.graph.sent.length, outboundSends];
    const r = await call<{ message: Message }>(admin, 'POST', notesPath(chatA), { body: 'Customer is a VIP, be quick', client_id: 'note-1' });
    expect(r.status).toBe(201);
    expect(r.body.message).toMatchObject({ chat_id: chatA, body: 'Customer is a VIP, be quick', is_private_note: true, from_me: true, author: rt.adminEmail, message_type: 'text', ack: 0, client_id: 'note-1' });
    await rt.idle();
    expect(rt.graph.sent.length).toBe(graphBefore);
    expect(outboundSends).toBe(outboundBefore);
    expect((await messagesOf(chatA))[0]).toMatchObject({ unique_id: r.body.message.unique_id, is_private_note: true });
    const after = await chatRow(chatA);
    expect(after.latest_message).toEqual(before.latest_message);
    expect(after.latest_message_timestamp).toBe(before.latest_message_timestamp);
    expect(after.unread_count).toEqual(before.unread_count);
    expect(after.closed_at ?? null).toEqual(before.closed_at ?? null);
  });

  it('refuses an empty or too long body, and a mention that is not a member, with reasons', async () => {
    const empty = await call<ApiError>(member, 'POST', notesPath(chatA), { body: '   ' });
    expect([empty.status, empty.body.error.details]).toEqual([400, [{ field: 'body', reason: 'must not be empty' }]]);
    const long = await call<ApiError>(member, 'POST', notesPath(chatA), { body: 'x'.repeat(4097) });
    expect(long.body.error.details).toEqual([{ field: 'body', reason: 'must be at most 4096 characters' }]);
    const missing = await call<ApiError>(member, 'POST', notesPath(chatA), {});
    expect(missing.body.error.details).toEqual([{ field: 'body', reason: 'is required' }]);
    const stranger = await call<ApiError>(admin, 'POST', notesPath(chatA), { body: 'hi @Nobody', mentions: ['nobody@notes.chorus'] });
    expect([stranger.status, stranger.body.error.details]).toEqual([400, [{ field: 'mentions', reason: 'is not a member of this workspace' }]]);
    const otherOrgMember = await call<ApiError>(admin, 'POST', notesPath(chatA), { body: 'hi', mentions: ['m2@notes.chorus'] });
    expect(otherOrgMember.status).toBe(400);
    expect((await call(admin, 'POST', notesPath('15557779999@c.us'), { body: 'hi' })).status).toBe(404);
  });
});

describe('mentions', () => {
  it('notify only the mentioned member: their list and unread count, and only their socket', async () => {
    const [a, m] = await Promise.all([connect(admin), connect(member)]);
    try {
      const r = await call<{ message: Message }>(admin, 'POST', notesPath(chatA), { body: '@Member please call them back today', mentions: [rt.memberEmail.toUpperCase(), rt.adminEmail] });
      expect(r.status).toBe(201);
      expect(r.body.message.mentions?.map((x) => x.email)).toEqual([rt.memberEmail, rt.adminEmail]);
      await rt.idle();
      // both have the chat: both threads get the note
      for (const s of [a, m]) await eventually(async () => s.events.some((e) => e.type === 'note.created' && (e.properties.message as Message).unique_id === r.body.message.unique_id), 5000, 'note.created');
      // the notification reaches only the mentioned member (the author mentioned themself: no notification)
      const n = await eventually(async () => m.events.find((e) => e.type === 'notification.created'), 5000, 'notification.created');
      expect(n.properties).toMatchObject({ email: rt.memberEmail, notification: { kind: 'mention', chat_id: chatA, unique_id: r.body.message.unique_id, body: '@Member please call them back today' } });
      expect((n.properties.notification as { title: string }).title).toMatch(/ mentioned you$/);
      expect(a.events.some((e) => e.type === 'notification.created')).toBe(false);

      const mine = await notificationsOf(member);
      expect(mine.unread_count).toBe(1);
      expect(mine.notifications).toHaveLength(1);
      expect(mine.notifications[0]).toMatchObject({ kind: 'mention', actor: rt.adminEmail, read_at: null });
      expect((await notificationsOf(admin)).notifications).toEqual([]);
    } finally {
      a.ws.close();
      m.ws.close();
    }
  });

  it('cuts the notification body to 120 characters and lists newest first with a cursor', async () => {
    const long = `@Member ${'word '.repeat(60)}`;
    await call(admin, 'POST', notesPath(chatA), { body: long, mentions: [rt.memberEmail] });
    const page1 = await call<ListNotificationsResponse>(member, 'GET', '/notifications?limit=1');
    expect(page1.body.notifications[0]!.body).toHaveLength(120);
    expect(page1.body.unread_count).toBe(2);
    expect(page1.body.cursor).toBeTruthy();
    const page2 = await call<ListNotificationsResponse>(member, 'GET', `/notifications?limit=1&cursor=${enc(page1.body.cursor!)}`);
    expect(page2.body.notifications[0]!.body).toBe('@Member please call them back today');
  });

  it('marks notifications read by id, then all; other members’ ids are ignored', async () => {
    const list = (await notificationsOf(member)).notifications;
    const byAdmin = await call<{ updated: number }>(admin, 'POST', '/notifications/read', { ids: [list[0]!.notification_id] });
    expect(byAdmin.body.updated).toBe(0);
    const one = await call<{ updated: number; unread_count: number }>(member, 'POST', '/notifications/read', { ids: [list[0]!.notification_id] });
    expect(one.body).toEqual({ updated: 1, unread_count: 1 });
    const again = await call<{ updated: number }>(member, 'POST', '/notifications/read', { ids: [list[0]!.notification_id] });
    expect(again.body.updated).toBe(0);
    const all = await call<{ updated: number; unread_count: number }>(member, 'POST', '/notifications/read', { all: true });
    expect(all.body).toEqual({ updated: 1, unread_count: 0 });
    const after = await notificationsOf(member);
    expect(after.notifications.every((n) => typeof n.read_at === 'number')).toBe(true);
    expect((await call<ApiError>(member, 'POST', '/notifications/read', {})).status).toBe(400);
    expect((await call<ApiError>(member, 'POST', '/notifications/read', { ids: ['nope'] })).status).toBe(400);
  });
});

describe('deleting a note', () => {
  it('only its author may delete it; the row stays as a tombstone and others see it live', async () => {
    const note = (await call<{ message: Message }>(admin, 'POST', notesPath(chatA), { body: 'Delete me later', mentions: [rt.memberEmail] })).body.message;
    const refused = await call<ApiError>(member, 'DELETE', notesPath(chatA, note.unique_id));
    expect([refused.status, refused.body.error.message]).toEqual([403, 'Only the author can delete this note']);
    const m = await connect(member);
    try {
      const done = await call<{ message: Message }>(admin, 'DELETE', notesPath(chatA, note.unique_id));
      expect(done.status).toBe(200);
      expect(done.body.message).toMatchObject({ unique_id: note.unique_id, is_private_note: true, is_deleted: true });
      expect(done.body.message.body ?? null).toBeNull();
      await rt.idle();
      await eventually(async () => m.events.some((e) => e.type === 'note.deleted' && (e.properties.message as Message).is_deleted === true), 5000, 'note.deleted');
    } finally {
      m.ws.close();
    }
    const stored = (await messagesOf(chatA)).find((x) => x.unique_id === note.unique_id)!;
    expect(stored).toMatchObject({ is_deleted: true, is_private_note: true, author: rt.adminEmail });
    expect(stored.body ?? null).toBeNull();
    // deleting again answers the tombstone; a customer message is not a note
    expect((await call(admin, 'DELETE', notesPath(chatA, note.unique_id))).status).toBe(200);
    const inbound = (await messagesOf(chatA)).find((x) => !x.from_me)!;
    expect((await call(admin, 'DELETE', notesPath(chatA, inbound.unique_id))).status).toBe(404);
    expect((await call(admin, 'DELETE', notesPath(chatA, 'not-a-ulid'))).status).toBe(404);
  });
});

describe('chat access', () => {
  it('a member may not write in a chat they cannot see, nor be mentioned in one, nor get its notes live', async () => {
    await db().entities.chat.patch({ org_id: rt.orgId, chat_id: chatB }).set({ chat_access: { [rt.adminEmail]: true } }).go();
    const r = await call<ApiError>(member, 'POST', notesPath(chatB), { body: 'sneaky' });
    expect([r.status, r.body.error.message]).toEqual([403, 'You do not have access to this chat']);
    const mention = await call<ApiError>(admin, 'POST', notesPath(chatB), { body: '@Member look', mentions: [rt.memberEmail] });
    expect([mention.status, mention.body.error.details]).toEqual([400, [{ field: 'mentions', reason: 'cannot see this chat' }]]);
    const [a, m] = await Promise.all([connect(admin), connect(member)]);
    try {
      const ok = await call<{ message: Message }>(admin, 'POST', notesPath(chatB), { body: 'admins always may' });
      expect(ok.status).toBe(201);
      await rt.idle();
      await eventually(async () => a.events.some((e) => e.type === 'note.created' && (e.properties.message as Message).unique_id === ok.body.message.unique_id), 5000, 'admin gets the note');
      // the member who may not see the chat gets nothing of it
      expect(m.events.some((e) => JSON.stringify(e).includes('admins always may'))).toBe(false);
    } finally {
      a.ws.close();
      m.ws.close();
    }
  });
});

describe('other orgs', () => {
  it('notes and notifications are refused outside the caller’s org', async () => {
    const note = (await call<{ message: Message }>(admin, 'POST', notesPath(chatA), { body: 'ours' })).body.message;
    for (const [method, path, json] of [
      ['POST', notesPath(chatA), { body: 'theirs' }],
      ['DELETE', notesPath(chatA, note.unique_id), undefined],
      ['GET', '/notifications', undefined],
      ['POST', '/notifications/read', { all: true }],
    ] as const) {
      const r = await rt.api(outsider, `/api/orgs/${rt.orgId}${path}`, { method, json });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await messagesOf(chatA)).find((x) => x.unique_id === note.unique_id)?.is_deleted ?? false).toBe(false);
    expect(rt.queues.get('realtime-fanout')!.deadLettered).toBe(0);
  });
});
