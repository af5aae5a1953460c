import { sealChatId } from '../../shared/chat/chat-id-seal.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { captureWaWebCommands, customerWrites, seedSentMessage, seedWaWebPhone, type WaWebPhone } from '../factories/wa-web.ts';
import { db } from '../../shared/db/service.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Ticket, TicketAuditEntry } from '../../shared/ticket/ticket.schemas.ts';
import type { Task } from '../../shared/task/task.schemas.ts';
import type { Notification } from '../../shared/notification/notification.schemas.ts';

/**
 * Issue 11, the HTTP side of the one access and masking guard (shared/access/guard.ts): each
 * finding of the review has its own test here, and each fails on the code before the guard.
 * A chat is restricted with `PUT …/chats/{id}/access` listing only the admin; the member must then
 * get nothing of it by any route (403 on direct access, left out of lists with paging intact), and
 * with mask_phone_numbers on, no customer number reaches the member in any answer.
 * Bad input (cursors, percent-encoding, an unbounded task link) is a 400 with its field, never a 500.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let web: WaWebPhone;
const enc = encodeURIComponent;
const SENTINEL = 'SENTINEL-7f3a-restricted';
// restricted 1:1 chat (its content carries the sentinel) and an open one
const secretNo = '15557770001';
const secret = `${secretNo}@c.us`;
const openNo = '15557770002';
const open = `${openNo}@c.us`;
// group A (open) whose member Xavier has a restricted 1:1 chat; group B (restricted) whose member Yara has an open 1:1 chat
const groupA = 'G7771@g.us';
const groupB = 'G7772@g.us';
const xavier = '15557770003';
const yara = '15557770004';
// a WhatsApp Web number and its customer (edit / delete answers)
const waCustomer = '15557770009';
const waChat = `${waCustomer}@c.us`;

type ApiError = { error: { code: string; message: string; details?: Array<{ field: string; reason: string }> } };
const call = <T = Record<string, unknown>>(token: string, method: string, path: string, json?: unknown) => rt.orgCall<T & ApiError>(token, method, path, json);
const messagesOf = async (chat: string, token = admin) => (await call<{ messages: Message[] }>(token, 'GET', `/chats/${enc(chat)}/messages?limit=200`)).body.messages;
const setMasking = (on: boolean) => call(admin, 'PUT', '/settings/permissions', { mask_phone_numbers: on });
const restrict = (chat: string) => call(admin, 'PUT', `/chats/${enc(chat)}/access`, { chat_access: { [rt.adminEmail]: true } });
/**
 * Every customer number of this file found whole in an answer, byte for byte: a masked member's
 * chat ids come sealed (issue 41 §5, shared/chat/chat-id-seal.ts), so nothing is left out.
 */
const NUMBERS = [secretNo, openNo, xavier, yara, waCustomer];
const leaksNumber = (body: unknown) => {
  const text = JSON.stringify(body);
  return NUMBERS.filter((n) => text.includes(n));
};

function groupText(groupId: string, from: string, name: string, body: string) {
  const payload = inboundText(rt.phone, from, body, { name });
  const value = payload.entry[0]!.changes[0]!.value as unknown as { messages: Array<Record<string, unknown>> };
  value.messages[0]!.group_id = groupId;
  return payload;
}

beforeAll(async () => {
  rt = await startTestRuntime();
  captureWaWebCommands(rt);
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  await rt.postWebhook(inboundText(rt.phone, secretNo, `${SENTINEL} my card number is 4111`, { name: 'Secret Sam' }));
  await rt.postWebhook(inboundText(rt.phone, secretNo, `${SENTINEL} second message`, { name: 'Secret Sam' }));
  await rt.postWebhook(inboundText(rt.phone, openNo, 'Where is my order?'));
  await rt.postWebhook(groupText('G7771', xavier, 'Xavier', 'Group A question'));
  await rt.postWebhook(inboundText(rt.phone, xavier, `${SENTINEL} Xavier privately`, { name: 'Xavier' }));
  await rt.postWebhook(groupText('G7772', yara, 'Yara', `${SENTINEL} group B only`));
  await rt.postWebhook(inboundText(rt.phone, yara, 'Yara 1:1', { name: 'Yara' }));
  await rt.idle();
  web = await seedWaWebPhone(rt.orgId, 'waweb-guard-1', '15557778888');
  await customerWrites(web, waCustomer, 'Hello over WhatsApp Web', { name: 'Wendy', at: Date.now() - 5 * 60_000 });
  for (const c of [secret, `${xavier}@c.us`, groupB]) expect((await restrict(c)).status).toBe(200);
});
afterAll(async () => {
  await setMasking(false).catch(() => undefined);
  await rt?.cleanup();
});

describe('tickets of a restricted chat (they ignored per-chat access)', () => {
  let secretTicket: Ticket;
  let openTickets: Ticket[] = [];

  beforeAll(async () => {
    const [s] = await messagesOf(secret);
    const r = await call<{ ticket: Ticket }>(admin, 'POST', '/tickets', { chat_id: secret, quoted_message_id: s!.unique_id, subject: `${SENTINEL} ticket` });
    expect(r.status).toBe(201);
    secretTicket = r.body.ticket;
    await call(admin, 'PATCH', `/tickets/${secretTicket.ticket_id}`, { priority: 3 });
    // three tickets the member may see, for paging around the hidden one
    const openMsgs = [...(await messagesOf(open)), ...(await messagesOf(`${yara}@c.us`)), ...(await messagesOf(groupA))];
    for (const m of openMsgs.slice(0, 3)) {
      const t = await call<{ ticket: Ticket }>(admin, 'POST', '/tickets', { chat_id: m.chat_id, quoted_message_id: m.unique_id });
      expect(t.status).toBe(201);
      openTickets.push(t.body.ticket);
    }
    openTickets = openTickets.sort((a, b) => (a.ticket_id < b.ticket_id ? 1 : -1));
  });

  it('GET …/tickets leaves them out, with paging still complete and without repeats', async () => {
    const all = await call<{ tickets: Ticket[] }>(member, 'GET', '/tickets?limit=100');
    expect(all.status).toBe(200);
    expect(all.body.tickets.map((t) => t.ticket_id)).toEqual(openTickets.map((t) => t.ticket_id));
    expect(JSON.stringify(all.body)).not.toContain(SENTINEL);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { tickets: Ticket[]; cursor: string | null } } = await call(member, 'GET', `/tickets?limit=1${cursor ? `&cursor=${enc(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.tickets.map((t) => t.ticket_id));
      cursor = page.body.cursor;
    } while (cursor);
    expect(seen).toEqual(openTickets.map((t) => t.ticket_id));
    // other indexes too: by priority and by status
    for (const q of ['priority=3', 'status=open', 'sort=priority_desc', 'sort=updated_desc']) {
      const r = await call<{ tickets: Ticket[] }>(member, 'GET', `/tickets?${q}`);
      expect(r.status, q).toBe(200);
      expect(r.body.tickets.map((t) => t.ticket_id), q).not.toContain(secretTicket.ticket_id);
    }
    // the admin still sees it
    expect((await call<{ tickets: Ticket[] }>(admin, 'GET', '/tickets?limit=100')).body.tickets.map((t) => t.ticket_id)).toContain(secretTicket.ticket_id);
  });

  it('GET …/tickets/{id} (with the attached message bodies) is 403', async () => {
    const r = await call(member, 'GET', `/tickets/${secretTicket.ticket_id}`);
    expect([r.status, r.body.error?.code, r.body.error?.message]).toEqual([403, 'chat.no_access', 'You do not have access to this chat']);
    expect(JSON.stringify(r.body)).not.toContain(SENTINEL);
  });

  it('GET …/tickets/{id}/audit is 403, with or without a cursor', async () => {
    const first = await call<{ entries: TicketAuditEntry[]; cursor: string | null }>(admin, 'GET', `/tickets/${secretTicket.ticket_id}/audit`);
    expect(first.status).toBe(200);
    const r = await call(member, 'GET', `/tickets/${secretTicket.ticket_id}/audit`);
    expect(r.status).toBe(403);
    const cursor = Buffer.from(JSON.stringify({ pk: 'x', sk: 'y' })).toString('base64url');
    expect((await call(member, 'GET', `/tickets/${secretTicket.ticket_id}/audit?cursor=${cursor}`)).status).toBe(403);
    expect(JSON.stringify(r.body)).not.toContain(SENTINEL);
  });

  it('PATCH …/tickets/{id} is 403 and changes nothing', async () => {
    const r = await call(member, 'PATCH', `/tickets/${secretTicket.ticket_id}`, { status: 'closed', assignee: rt.memberEmail });
    expect(r.status).toBe(403);
    const after = await call<{ ticket: Ticket }>(admin, 'GET', `/tickets/${secretTicket.ticket_id}`);
    expect(after.body.ticket).toMatchObject({ status: 'open', assignee: null });
  });

  it('POST …/tickets/bulk fails that ticket with the access reason and updates the others', async () => {
    const r = await call<{ updated: Ticket[]; failed: Array<{ ticket_id: string; reason: string }> }>(member, 'POST', '/tickets/bulk', { ticket_ids: [secretTicket.ticket_id, openTickets[0]!.ticket_id], status: 'inprogress' });
    expect(r.status).toBe(200);
    expect(r.body.failed).toEqual([{ ticket_id: secretTicket.ticket_id, reason: 'You do not have access to this chat' }]);
    expect(r.body.updated.map((t) => t.ticket_id)).toEqual([openTickets[0]!.ticket_id]);
    expect((await call<{ ticket: Ticket }>(admin, 'GET', `/tickets/${secretTicket.ticket_id}`)).body.ticket.status).toBe('open');
  });

  it("GET …/chats/{id}/tickets and a ticket from that chat's message (body chat_id) are 403", async () => {
    expect((await call(member, 'GET', `/chats/${enc(secret)}/tickets`)).status).toBe(403);
    const free = (await messagesOf(secret)).find((m) => !m.message_ticket_id)!;
    const create = await call(member, 'POST', '/tickets', { chat_id: secret, quoted_message_id: free.unique_id });
    expect([create.status, create.body.error?.code]).toEqual([403, 'chat.no_access']);
  });
});

describe('forward, reply privately and its quote (no access check)', () => {
  it('forwarding into a restricted chat is 403 and nothing is sent', async () => {
    const [m] = await messagesOf(open);
    const before = rt.graph.sent.length;
    const r = await call(member, 'POST', `/chats/${enc(open)}/messages/${m!.unique_id}/forward`, { chat_ids: [secret] });
    expect([r.status, r.body.error?.code]).toEqual([403, 'chat.no_access']);
    await rt.idle();
    expect(rt.graph.sent.length).toBe(before);
    expect((await messagesOf(secret)).some((x) => x.forwarded)).toBe(false);
  });

  it('reply privately to a group member whose 1:1 chat is restricted is 403 (the chat is not handed out)', async () => {
    const src = (await messagesOf(groupA, member)).find((m) => m.body === 'Group A question')!;
    const r = await call<{ chat: Chat }>(member, 'POST', `/chats/${enc(groupA)}/messages/${src.unique_id}/reply-privately`);
    expect([r.status, r.body.error?.code]).toEqual([403, 'chat.no_access']);
    expect(JSON.stringify(r.body)).not.toContain(SENTINEL);
  });

  it('a send quoting a message of a restricted group (quoted_chat_id) is 403', async () => {
    const src = (await messagesOf(groupB)).find((m) => m.sender_phone === yara)!;
    const r = await call(member, 'POST', `/chats/${enc(`${yara}@c.us`)}/messages`, { body: 'about your group question', quoted_message_id: src.message_id, quoted_chat_id: groupB });
    expect([r.status, r.body.error?.code]).toEqual([403, 'chat.no_access']);
    expect((await messagesOf(`${yara}@c.us`)).some((m) => m.body === 'about your group question')).toBe(false);
  });
});

describe('media of a restricted chat', () => {
  it('GET …/media?chat_id= of a restricted chat is 403 (the check read only path parameters)', async () => {
    const r = await call(member, 'GET', `/media?chat_id=${enc(secret)}`);
    expect([r.status, r.body.error?.code]).toEqual([403, 'chat.no_access']);
    expect((await call(admin, 'GET', `/media?chat_id=${enc(secret)}`)).status).toBe(200);
  });

  it('GET …/media without a chat leaves out the files of restricted chats', async () => {
    const at = Date.now() - 60_000;
    const row = (chat_id: string, unique_id: string) => ({ org_id: rt.orgId, chat_id, unique_id, timestamp: at, message_type: 'image', path: `media/${unique_id}.jpg`, from_me: false, caption: chat_id === secret ? SENTINEL : 'fine', chat_name: 'x' });
    await db().entities.mediaItem.put(row(secret, '01KAAAAAAAAAAAAAAAAAAAAAA1')).go();
    await db().entities.mediaItem.put(row(open, '01KAAAAAAAAAAAAAAAAAAAAAA2')).go();
    const r = await call<{ items: Array<{ chat_id: string }> }>(member, 'GET', '/media');
    expect(r.status).toBe(200);
    expect(r.body.items.map((i) => i.chat_id)).toEqual([open]);
    expect(JSON.stringify(r.body)).not.toContain(SENTINEL);
    expect((await call<{ items: Array<{ chat_id: string }> }>(admin, 'GET', '/media')).body.items.map((i) => i.chat_id).sort()).toEqual([open, secret].sort());
  });
});

describe('masking leaks (mask_phone_numbers on, a member)', () => {
  beforeAll(async () => {
    expect((await setMasking(true)).status).toBe(200);
  });
  afterAll(async () => {
    await setMasking(false);
  });

  it('flag and pin answers mask chat.members keys and the sender', async () => {
    const [m] = await messagesOf(open, admin);
    const flag = await call<{ message: Message; chat: Chat }>(member, 'PUT', `/chats/${enc(open)}/messages/${m!.unique_id}/flag`, { flag_status: true });
    expect(flag.status).toBe(200);
    expect(Object.keys(flag.body.chat.members ?? {})).toEqual(['15*******02']);
    expect(flag.body.message.sender_phone).toBe('15*******02');
    expect(leaksNumber(flag.body)).toEqual([]);
    const pin = await call<{ message: Message; chat: Chat }>(member, 'PUT', `/chats/${enc(open)}/messages/${m!.unique_id}/pin`, { pin: true, duration: '24h' });
    expect(pin.status).toBe(200);
    expect(leaksNumber(pin.body)).toEqual([]);
    expect(Object.keys(pin.body.chat.members ?? {})).toEqual(['15*******02']);
  });

  it('refresh and react answers mask the sender and reaction keys', async () => {
    // one of ours that the customer reacted to (keyed by their number)
    const mine = await seedSentMessage(web, waChat, 'Your parcel left today', { at: Date.now() - 60_000, author: rt.memberEmail });
    await db().entities.message.patch({ org_id: rt.orgId, chat_id: waChat, timestamp: mine.timestamp, unique_id: mine.unique_id }).set({ reactions: { [waCustomer]: { reaction: '👍', timestamp: Date.now() } } }).go();
    const refresh = await call<{ message: Message }>(member, 'POST', `/chats/${enc(waChat)}/messages/${mine.unique_id}/refresh`);
    expect(refresh.status).toBe(200);
    expect(Object.keys(refresh.body.message.reactions ?? {})).toEqual(['15*******09']);
    expect(leaksNumber(refresh.body)).toEqual([]);
    const [m] = await messagesOf(open, admin);
    await db().entities.message.patch({ org_id: rt.orgId, chat_id: open, timestamp: m!.timestamp, unique_id: m!.unique_id }).set({ reactions: { [openNo]: { reaction: '👍', timestamp: Date.now() } } }).go();
    const react = await call<{ message: Message }>(member, 'POST', `/chats/${enc(open)}/messages/${m!.unique_id}/reaction`, { reaction: '🙏' });
    expect(react.status).toBe(202);
    expect(react.body.message.sender_phone).toBe('15*******02');
    expect(Object.keys(react.body.message.reactions ?? {})).toContain('15*******02');
    expect(leaksNumber(react.body)).toEqual([]);
  });

  it('edit and delete answers mask edit_history[].edited_by, deleted_by and reaction keys', async () => {
    const mine = await seedSentMessage(web, waChat, 'See you at 5', { at: Date.now() - 60_000, author: rt.memberEmail });
    // an earlier edit made on WhatsApp and the customer's reaction
    await db()
      .entities.message.patch({ org_id: rt.orgId, chat_id: waChat, timestamp: mine.timestamp, unique_id: mine.unique_id })
      .set({ edit_history: [{ body: 'See you at 4', edited_at: Date.now() - 30_000, edited_by: `whatsapp:${waCustomer}` }], reactions: { [waCustomer]: { reaction: '❤️', timestamp: Date.now() } } })
      .go();
    const edit = await call<{ message: Message }>(member, 'PATCH', `/chats/${enc(waChat)}/messages/${mine.unique_id}`, { body: 'See you at 6' });
    expect(edit.status).toBe(202);
    expect(edit.body.message.edit_history?.[0]?.edited_by).toBe('whatsapp:15*******09');
    expect(leaksNumber(edit.body)).toEqual([]);
    const other = await seedSentMessage(web, waChat, 'Bye', { at: Date.now() - 60_000, author: rt.memberEmail });
    await db().entities.message.patch({ org_id: rt.orgId, chat_id: waChat, timestamp: other.timestamp, unique_id: other.unique_id }).set({ reactions: { [waCustomer]: { reaction: '👋', timestamp: Date.now() } } }).go();
    const del = await call<{ message: Message }>(member, 'DELETE', `/chats/${enc(waChat)}/messages/${other.unique_id}`);
    expect(del.status).toBe(202);
    expect(leaksNumber(del.body)).toEqual([]);
  });

  it("a send's answer masks the quoted customer message's author", async () => {
    const [m] = await messagesOf(open, admin);
    await db().entities.message.patch({ org_id: rt.orgId, chat_id: open, timestamp: m!.timestamp, unique_id: m!.unique_id }).set({ author: openNo }).go();
    const r = await call<{ message: Message }>(member, 'POST', `/chats/${enc(open)}/messages`, { body: 'Checking now', quoted_message_id: m!.message_id });
    expect(r.status).toBe(201);
    expect(r.body.message.quoted_message?.author).toBe('15*******02');
    expect(leaksNumber(r.body)).toEqual([]);
  });

  it('deleted_by of a message deleted on WhatsApp is masked in the thread', async () => {
    const [m] = (await messagesOf(waChat)).filter((x) => !x.from_me);
    await db().entities.message.patch({ org_id: rt.orgId, chat_id: waChat, timestamp: m!.timestamp, unique_id: m!.unique_id }).set({ is_deleted: true, deleted_at: Date.now(), deleted_by: `whatsapp:${waCustomer}` }).go();
    const got = (await messagesOf(waChat, member)).find((x) => x.unique_id === m!.unique_id)!;
    expect(got.deleted_by).toBe('whatsapp:15*******09');
    expect((await messagesOf(waChat, admin)).find((x) => x.unique_id === m!.unique_id)!.deleted_by).toBe(`whatsapp:${waCustomer}`);
  });

  it("reply privately's 1:1 chat is masked", async () => {
    const src = (await messagesOf(groupB)).find((m) => m.sender_phone === yara)!;
    // group B is restricted: open it to the member for this reply
    await call(admin, 'PUT', `/chats/${enc(groupB)}/access`, { chat_access: {} });
    try {
      const r = await call<{ chat: Chat; quote: { author: string | null } }>(member, 'POST', `/chats/${enc(groupB)}/messages/${src.unique_id}/reply-privately`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body.chat.members ?? {})).toEqual(['15*******04']);
      expect(leaksNumber({ ...r.body, chat: { ...r.body.chat, chat_id: null } })).toEqual([]);
    } finally {
      await restrict(groupB);
    }
  });

  it('notification titles and bodies of an unnamed chat are masked', async () => {
    await rt.postWebhook(inboundText(rt.phone, '15557770011', 'No name here'));
    await rt.idle();
    const chat = '15557770011@c.us';
    await db().entities.chat.patch({ org_id: rt.orgId, chat_id: chat }).remove(['chat_name']).go();
    expect((await call(admin, 'POST', '/chats/assign', { chat_ids: [chat], assigned_to: rt.memberEmail })).status).toBe(200);
    await rt.idle();
    const r = await call<{ notifications: Notification[] }>(member, 'GET', '/notifications');
    const n = r.body.notifications.find((x) => x.chat_id === sealChatId(rt.orgId, chat))!;
    expect(n).toBeDefined();
    expect(`${n.title} ${n.body}`).not.toContain('15557770011');
    expect(n.body).toContain('15*******11');
  });

  it('tasks never store a client-sent sender_phone, and show the derived one masked', async () => {
    const m = (await messagesOf(open, admin)).find((x) => !x.from_me);
    const r = await call<{ task: Task }>(member, 'POST', '/tasks', { title: 'Call back', associated_object_metadata: { id: m!.unique_id, type: 'message', object: { chat_id: open, sender_phone: '19990000000' } } });
    expect(r.status).toBe(201);
    expect(r.body.task.associated_object_metadata?.object.sender_phone).toBe('15*******02');
    const stored = (await db().entities.task.get({ org_id: rt.orgId, task_id: r.body.task.task_id }).go()).data!;
    expect((stored.associated_object_metadata as Task['associated_object_metadata'])?.object.sender_phone).toBe(openNo);
    expect((await call<{ task: Task }>(member, 'GET', `/tasks/${r.body.task.task_id}`)).body.task.associated_object_metadata?.object.sender_phone).toBe('15*******02');
    expect((await call<{ task: Task }>(admin, 'GET', `/tasks/${r.body.task.task_id}`)).body.task.associated_object_metadata?.object.sender_phone).toBe(openNo);
  });
});

describe('tasks linked to a restricted chat', () => {
  it("the assignee's task linked to a chat restricted later is 403 and left out of the list (paging intact)", async () => {
    await rt.postWebhook(inboundText(rt.phone, '15557770012', `${SENTINEL} later restricted`, { name: 'Later' }));
    await rt.idle();
    const chat = '15557770012@c.us';
    const mk = async (title: string, link: boolean) =>
      (await call<{ task: Task }>(admin, 'POST', '/tasks', { title, assignee: rt.memberEmail, ...(link ? { associated_object_metadata: { id: chat, type: 'chat', object: { chat_id: chat } } } : {}) })).body.task.task_id;
    const before = await mk('plain before', false);
    const linked = await mk(`${SENTINEL} linked`, true);
    const after = await mk('plain after', false);
    expect((await call(member, 'GET', `/tasks/${linked}`)).status).toBe(200);
    expect((await restrict(chat)).status).toBe(200);
    for (const [method, path, body] of [
      ['GET', `/tasks/${linked}`],
      ['GET', `/tasks/${linked}/audit`],
      ['POST', `/tasks/${linked}/remind-in`, { remind_in: '1_hour' }],
      ['PUT', `/tasks/${linked}`, { title: 'x', status: 'open', priority: 1, assignee: rt.memberEmail, due_date: null, remind_at: null, reminder_setting: { remind_in: 'none' }, notes: '' }],
    ] as const) {
      const r = await call(member, method, path, body);
      expect([r.status, r.body.error?.code], `${method} ${path}`).toEqual([403, 'chat.no_access']);
    }
    const bulk = await call<{ failed: Array<{ task_id: string; reason: string }> }>(member, 'POST', '/tasks/bulk', { task_ids: [linked], priority: 3 });
    expect(bulk.body.failed).toEqual([{ task_id: linked, reason: 'You do not have access to this chat' }]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { tasks: Task[]; cursor: string | null } } = await call(member, 'GET', `/tasks?limit=1${cursor ? `&cursor=${enc(cursor)}` : ''}`);
      expect(page.status).toBe(200);
      expect(JSON.stringify(page.body)).not.toContain(SENTINEL);
      seen.push(...page.body.tasks.map((t) => t.task_id));
      cursor = page.body.cursor;
    } while (cursor);
    expect(seen).toEqual(expect.arrayContaining([before, after]));
    expect(seen).not.toContain(linked);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await call(admin, 'GET', `/tasks/${linked}`)).status).toBe(200);
  });

  it('a link to a restricted chat (or its ticket) is 403', async () => {
    const [s] = await messagesOf(secret);
    const chatLink = await call(member, 'POST', '/tasks', { title: 'x', associated_object_metadata: { id: secret, type: 'chat', object: {} } });
    expect([chatLink.status, chatLink.body.error?.code]).toEqual([403, 'chat.no_access']);
    const msgLink = await call(member, 'POST', '/tasks', { title: 'x', associated_object_metadata: { id: s!.unique_id, type: 'message', object: { chat_id: secret } } });
    expect(msgLink.status).toBe(403);
    const tickets = await call<{ tickets: Ticket[] }>(admin, 'GET', '/tickets?limit=100');
    const t = tickets.body.tickets.find((x) => x.chat_id === secret)!;
    const ticketLink = await call(member, 'POST', '/tasks', { title: 'x', associated_object_metadata: { id: t.ticket_id, type: 'ticket', object: { ticket_id: t.ticket_id } } });
    expect(ticketLink.status).toBe(403);
  });
});

describe('bad input is a 400, never a 500', () => {
  let taskId: string;
  let ticketId: string;
  beforeAll(async () => {
    taskId = (await call<{ task: Task }>(member, 'POST', '/tasks', { title: 'cursor target' })).body.task.task_id;
    ticketId = (await call<{ tickets: Ticket[] }>(member, 'GET', '/tickets?limit=1')).body.tickets[0]!.ticket_id;
  });

  it('a malformed cursor on messages, notifications, tasks, ticket audit, task audit (and reactions, media) is 400 on query.cursor', async () => {
    // well-formed but of another partition: DynamoDB refuses the start key
    const foreign = Buffer.from(JSON.stringify({ pk: '$chorus#org_other', sk: '$x#y' })).toString('base64url');
    const [m] = await messagesOf(open);
    for (const path of [`/chats/${enc(open)}/messages`, '/notifications', '/tasks', `/tickets/${ticketId}/audit`, `/tasks/${taskId}/audit`, `/chats/${enc(open)}/messages/${m!.unique_id}/reactions`, '/media']) {
      for (const cursor of ['!!x', 'zzz', enc('{"pk":1}'), foreign]) {
        const r = await call(member, 'GET', `${path}?cursor=${cursor}`);
        expect([r.status, r.body.error?.details?.map((d) => d.field)], `${path} ${cursor}`).toEqual([400, ['query.cursor']]);
      }
    }
  });

  it('bad percent-encoding in a path parameter is 400', async () => {
    const r = await rt.api(member, `/api/orgs/%E0%A4%A/chats`, { method: 'GET' });
    expect(r.status).toBe(400);
    const body = (await r.json()) as ApiError;
    expect(body.error.details?.[0]?.field).toMatch(/^params\./);
    const chat = await rt.api(member, `/api/orgs/${rt.orgId}/chats/%E0%A4%A/messages`, { method: 'GET' });
    expect(chat.status).toBe(400);
  });

  it('an unbounded associated_object_metadata.object is refused (400), unknown keys are not stored', async () => {
    const [m] = await messagesOf(open);
    const huge = await call(member, 'POST', '/tasks', { title: 'x', associated_object_metadata: { id: m!.unique_id, type: 'message', object: { chat_id: open, message_id: 'x'.repeat(300_000) } } });
    expect(huge.status).toBe(400);
    expect(huge.body.error?.details?.map((d) => d.field)).toContain('associated_object_metadata.object.message_id');
    const extra = await call<{ task: Task }>(member, 'POST', '/tasks', { title: 'x', associated_object_metadata: { id: open, type: 'chat', object: { chat_id: open, blob: 'y'.repeat(200_000) } } });
    expect(extra.status).toBe(201);
    expect(JSON.stringify(extra.body.task)).not.toContain('yyyy');
  });
});
