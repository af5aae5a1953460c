import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { sealChatId } from '../../shared/chat/chat-id-seal.ts';
import { eventually } from '../factories/wait.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Socket payloads go through the access and masking rules (issue 11, items 1 and 4;
 * shared/realtime/event-view.ts): a member's socket gets nothing of a chat they may not see, what it
 * gets is masked when the org masks numbers, and removing a member or revoking chat access applies
 * to open sockets at once. "Nothing was pushed" is proven without waiting: after the event in
 * question has been fanned out (rt.idle), a marker event the socket may see is sent; pushes to one
 * socket arrive in order, so once the marker is there, anything sent before it would be too.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const enc = encodeURIComponent;
const RESTRICTED = '919800000101';
const OPEN = '919800000102';
const UNNAMED = '919800000103';
const chatOf = (n: string) => `${n}@c.us`;

type Pushed = { type: string; properties: Record<string, unknown> };
interface Sock {
  ws: WebSocket;
  events: Pushed[];
  closed: Promise<void>;
}

function connect(token: string): Promise<Sock> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${enc(token)}&org_id=${enc(rt.orgId)}`);
    const events: Pushed[] = [];
    const closed = new Promise<void>((r) => ws.on('close', () => r()));
    ws.on('message', (d) => events.push(JSON.parse(String(d)) as Pushed));
    ws.on('open', () => resolve({ ws, events, closed }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`socket refused: ${res.statusCode}`)));
    ws.on('error', () => undefined);
  });
}

/** A customer writes to the Cloud number; its fan-out is done when this returns. */
async function customerWrites(from: string, body: string, name = 'Customer'): Promise<void> {
  expect((await rt.postWebhook(inboundText(rt.phone, from, body, { name }))).status).toBe(200);
  await rt.idle();
}

/** Send a marker to the open chat and wait until `sock` has it: everything pushed to it before is in. */
async function marker(sock: Sock, label: string): Promise<void> {
  await customerWrites(OPEN, label);
  await eventually(async () => sock.events.some((e) => e.type === 'message.received' && (e.properties.message as Message).body === label), 10_000, `marker ${label} on the socket`);
}

const mentions = (events: Pushed[], text: string) => events.filter((e) => JSON.stringify(e).includes(text));
const orgConnections = async (email: string) => (await db().entities.connection.query.byOrg({ org_id: rt.orgId }).go({ pages: 'all' })).data.filter((c) => c.email.toLowerCase() === email);

async function addMember(email: string): Promise<string> {
  const sub = await rt.createUser(email, rt.password);
  await db().entities.member.create({ org_id: rt.orgId, email, role: 'member', is_active: true, is_online: false, user_id: sub, member_name: 'Temp' }).go();
  return rt.signIn(email);
}

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  await customerWrites(RESTRICTED, 'first words', 'SECRET-NAME');
  await customerWrites(OPEN, 'hello');
}, 120_000);
afterAll(async () => rt?.cleanup());

describe('revoking chat access (PUT …/chats/{chat_id}/access)', () => {
  it("applies to an open socket at once: the chat's next message, ticket and note are not pushed to the member, only the dimmed stub", async () => {
    const m = await connect(member);
    const a = await connect(admin);
    const revoked = await rt.orgCall(admin, 'PUT', `/chats/${enc(chatOf(RESTRICTED))}/access`, { chat_access: { [rt.adminEmail]: true } });
    expect(revoked.status).toBe(200);
    await rt.idle();
    await marker(m, 'marker-0');
    const from = m.events.length;

    await customerWrites(RESTRICTED, 'SECRET-AFTER-REVOKE');
    const msg = (await rt.orgJson<{ messages: Message[] }>(admin, `/chats/${enc(chatOf(RESTRICTED))}/messages`)).messages.find((x) => x.body === 'SECRET-AFTER-REVOKE')!;
    const ticket = await rt.orgCall(admin, 'POST', '/tickets', { chat_id: chatOf(RESTRICTED), quoted_message_id: msg.unique_id, subject: 'SECRET-TICKET-SUBJECT', assignee: rt.memberEmail });
    expect(ticket.status).toBe(201);
    const ticketId = (ticket.body as { ticket: { ticket_id: string } }).ticket.ticket_id;
    expect((await rt.orgCall(admin, 'PATCH', `/tickets/${ticketId}`, { status: 'closed' })).status).toBe(200);
    expect((await rt.orgCall(admin, 'POST', `/chats/${enc(chatOf(RESTRICTED))}/notes`, { body: 'SECRET-NOTE' })).status).toBeLessThan(300);
    await rt.idle();
    await marker(m, 'marker-1');

    const after = m.events.slice(from);
    for (const secret of ['SECRET-AFTER-REVOKE', 'SECRET-TICKET-SUBJECT', 'SECRET-NOTE', 'SECRET-NAME']) expect(mentions(after, secret)).toEqual([]);
    const aboutChat = after.filter((e) => JSON.stringify(e).includes(chatOf(RESTRICTED)));
    // only the list's stub (spec §6: dimmed, 'You do not have access to this chat')
    expect(aboutChat.map((e) => e.type)).toEqual(aboutChat.map(() => 'chat.updated'));
    for (const e of aboutChat) expect(e.properties.chat).toMatchObject({ chat_id: chatOf(RESTRICTED), has_access: false });
    expect(aboutChat.some((e) => e.properties.chat && 'chat_name' in (e.properties.chat as object))).toBe(false);

    // the admin's socket did get all of it: the events were there to leak
    for (const type of ['message.received', 'ticket.created', 'ticket.closed', 'note.created']) expect(a.events.some((e) => e.type === type && JSON.stringify(e).includes(chatOf(RESTRICTED)))).toBe(true);
    m.ws.close();
    a.ws.close();
  });
});

describe('masking on sockets (mask_phone_numbers on)', () => {
  it("a member's ticket and message pushes name an unnamed customer by a masked number; an admin's do not", async () => {
    expect((await rt.orgCall(admin, 'PUT', '/settings/permissions', { mask_phone_numbers: true })).status).toBe(200);
    try {
      const m = await connect(member);
      const a = await connect(admin);
      // a customer without a profile name: the chat is named by the number
      await customerWrites(UNNAMED, 'no name here', UNNAMED);
      const msg = (await rt.orgJson<{ messages: Message[] }>(admin, `/chats/${enc(chatOf(UNNAMED))}/messages`)).messages[0]!;
      expect((await rt.orgCall(admin, 'POST', '/tickets', { chat_id: chatOf(UNNAMED), quoted_message_id: msg.unique_id, subject: 'Refund' })).status).toBe(201);
      await rt.idle();
      await marker(m, 'marker-2');
      await marker(a, 'marker-2b');

      const masked = `${UNNAMED.slice(0, 2)}********${UNNAMED.slice(-2)}`;
      // a masked member's frames name the chat by its sealed id (issue 41 §5)
      const ticketFor = (s: Sock) => s.events.find((e) => e.type === 'ticket.created' && [chatOf(UNNAMED), sealChatId(rt.orgId, chatOf(UNNAMED))].includes((e.properties.ticket as { chat_id: string }).chat_id))!;
      expect(ticketFor(m).properties.ticket).toMatchObject({ chat_name: masked, subject: 'Refund' });
      expect(ticketFor(a).properties.ticket).toMatchObject({ chat_name: UNNAMED });
      const received = m.events.find((e) => e.type === 'message.received' && (e.properties.message as Message).body === 'no name here')!;
      expect(received.properties.message).toMatchObject({ sender_phone: masked });
      expect(received.properties.chat).toMatchObject({ chat_name: masked });
      // nothing pushed to the member carries the number, byte for byte: the chat id comes sealed (issue 41 §5)
      expect(m.events.filter((e) => JSON.stringify(e).includes(UNNAMED))).toEqual([]);
      expect((ticketFor(m).properties.ticket as { chat_id: string }).chat_id).toBe(sealChatId(rt.orgId, chatOf(UNNAMED)));
      m.ws.close();
      a.ws.close();
    } finally {
      expect((await rt.orgCall(admin, 'PUT', '/settings/permissions', { mask_phone_numbers: false })).status).toBe(200);
    }
  });
});

describe('removed members', () => {
  it('removing a member (DELETE …/team/{email}) drops their connection rows at once and closes their sockets; nothing more reaches them', async () => {
    const email = 'leaving@test.chorus';
    const x = await connect(await addMember(email));
    const a = await connect(admin);
    await marker(x, 'marker-3');
    expect(await orgConnections(email)).toHaveLength(1);

    const removed = await rt.orgCall(admin, 'DELETE', `/team/${enc(email)}`);
    expect(removed.status).toBe(200);
    // at once: by the time the API answered, the rows are gone
    expect(await orgConnections(email)).toEqual([]);
    await x.closed;
    const from = x.events.length;

    await customerWrites(OPEN, 'AFTER-REMOVAL');
    await marker(a, 'marker-4');
    expect(x.events.slice(from)).toEqual([]);
    expect(a.events.some((e) => JSON.stringify(e).includes('AFTER-REMOVAL'))).toBe(true);
    a.ws.close();
  });

  it('a connection row left behind for someone who is no longer a member gets no push (the fan-out checks membership on every event)', async () => {
    const email = 'lingering@test.chorus';
    const y = await connect(await addMember(email));
    await marker(y, 'marker-5');
    // the membership goes without the removal use case (e.g. a $connect that raced the removal): the row stays
    await db().entities.member.delete({ org_id: rt.orgId, email }).go();
    expect(await orgConnections(email)).toHaveLength(1);
    const from = y.events.length;

    await customerWrites(OPEN, 'WHILE-NOT-A-MEMBER');
    // typing indicators (sent straight from the $default route, not through the bus) skip them too
    const m = await connect(member);
    const a = await connect(admin);
    m.ws.send(JSON.stringify({ type: 'typing', chat_id: chatOf(OPEN), state: 'start' }));
    await eventually(async () => a.events.some((e) => e.type === 'chat.typing'), 10_000, "the admin's socket got the typing indicator (control)");
    // membership back, then a marker: it arrives, the event before it did not
    await db().entities.member.create({ org_id: rt.orgId, email, role: 'member', is_active: true, is_online: false, member_name: 'Temp' }).go();
    await marker(y, 'marker-6');
    expect(mentions(y.events.slice(from), 'WHILE-NOT-A-MEMBER')).toEqual([]);
    expect(y.events.slice(from).filter((e) => e.type === 'chat.typing')).toEqual([]);
    for (const s of [y, m, a]) s.ws.close();
  });

  it('a pending invite (is_active false) gets no push on a leftover connection either', async () => {
    const email = 'pending@test.chorus';
    const z = await connect(await addMember(email));
    await marker(z, 'marker-7');
    await db().entities.member.patch({ org_id: rt.orgId, email }).set({ is_active: false }).go();
    const from = z.events.length;
    await customerWrites(OPEN, 'WHILE-INVITED');
    await db().entities.member.patch({ org_id: rt.orgId, email }).set({ is_active: true }).go();
    await marker(z, 'marker-8');
    expect(mentions(z.events.slice(from), 'WHILE-INVITED')).toEqual([]);
    z.ws.close();
    expect(rt.queues.get('realtime-fanout')!.deadLettered).toBe(0);
  });
});
