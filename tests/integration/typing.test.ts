import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { eventually } from '../factories/wait.ts';

/**
 * Typing indicator over the WebSocket API (shared/realtime/typing.ts): a member's 'start' reaches
 * the teammates who may see the chat, never the sender's own sockets, another org or a member
 * the chat's chat_access excludes; a second 'start' within 2 s is dropped.
 */
type Frame = { type: string; properties: Record<string, unknown> };
type Conn = { ws: WebSocket; frames: Frame[] };

let rt: TestRuntime;
let otherOrg: string;
const chatId = '15557770001@c.us';
const bee = 'bee@test.chorus';
const cy = 'cy@test.chorus';
const otherPhone = { phone_number_id: '333000222', display_phone_number: '15553330001' };
const open: Conn[] = [];

async function connect(email: string, orgId = rt.orgId): Promise<Conn> {
  const token = await rt.signIn(email);
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${encodeURIComponent(token)}&org_id=${encodeURIComponent(orgId)}`);
    const conn: Conn = { ws, frames: [] };
    ws.on('message', (d) => conn.frames.push(JSON.parse(String(d)) as Frame));
    ws.on('open', () => {
      open.push(conn);
      resolve(conn);
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`connect ${email}: HTTP ${res.statusCode}`)));
    ws.on('error', () => undefined);
  });
}

const typing = (c: Conn, state: 'start' | 'stop', chat = chatId) => c.ws.send(JSON.stringify({ type: 'typing', chat_id: chat, state }));
const typingFrames = (c: Conn) => c.frames.filter((f) => f.type === 'chat.typing');
const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  rt = await startTestRuntime();
  for (const [email, name] of [
    [bee, 'Bee'],
    [cy, 'Cy'],
  ]) {
    const sub = await rt.createUser(email, rt.password);
    await db().entities.member.create({ org_id: rt.orgId, email, member_name: name, user_id: sub, role: 'member', is_active: true }).go();
  }
  const outsider = 'outsider@typing.chorus';
  const sub = await rt.createUser(outsider, rt.password);
  otherOrg = await seedDemo({ orgName: 'Other', admin: { email: outsider, sub, name: 'O' }, member: { email: 'm@typing.chorus', sub: 'x', name: 'M' }, phone: otherPhone });
  // the chat row directly (typing reads only the row); Cy may not see it, the demo member and
  // Bee may (admins always may)
  await db()
    .entities.chat.create({ org_id: rt.orgId, chat_id: chatId, chat_type: 'user', org_phone: rt.phone.display_phone_number, phone_id: rt.phone.phone_number_id, latest_message_timestamp: Date.now() })
    .go();
  await db()
    .entities.chat.patch({ org_id: rt.orgId, chat_id: chatId })
    .set({ chat_access: { [rt.memberEmail]: true, [bee]: true, [cy]: false } })
    .go();
});
afterAll(async () => {
  for (const c of open) c.ws.close();
  await rt?.cleanup();
});

describe('typing over the socket', () => {
  it("relays a member's start to teammates who may see the chat, and to nobody else", async () => {
    const a1 = await connect(rt.memberEmail);
    const a2 = await connect(rt.memberEmail);
    const b = await connect(bee);
    const admin = await connect(rt.adminEmail);
    const c = await connect(cy);
    const o = await connect('outsider@typing.chorus', otherOrg);

    typing(a1, 'start');
    for (const to of [b, admin]) {
      const got = await eventually(async () => typingFrames(to)[0], 5_000, 'chat.typing');
      expect(got.properties).toEqual({ org_id: rt.orgId, chat_id: chatId, email: rt.memberEmail, member_name: 'Demo Member', state: 'start', at: expect.any(Number) });
    }
    await settle();
    expect(typingFrames(a1)).toEqual([]);
    expect(typingFrames(a2)).toEqual([]);
    expect(typingFrames(c)).toEqual([]);
    expect(o.frames).toEqual([]);

    // a second start within 2 s is dropped; the stop goes through
    typing(a1, 'start');
    await settle();
    expect(typingFrames(b)).toHaveLength(1);
    typing(a1, 'stop');
    const stop = await eventually(async () => typingFrames(b).find((f) => f.properties.state === 'stop'), 5_000, 'stop');
    expect(stop.properties).toMatchObject({ email: rt.memberEmail, chat_id: chatId });
    expect(typingFrames(c)).toEqual([]);

    // after a stop the next start goes through at once
    typing(a1, 'start');
    await eventually(async () => typingFrames(b).filter((f) => f.properties.state === 'start').length === 2, 5_000, 'start after stop');
  });

  it('ignores a sender who may not see the chat, an unknown chat, pings and junk', async () => {
    const b = await connect(bee);
    const c = await connect(cy);
    typing(c, 'start');
    typing(b, 'start', '15550000000@c.us');
    c.ws.send(JSON.stringify({ type: 'ping' }));
    c.ws.send(JSON.stringify({ action: 'ping' }));
    c.ws.send('not json');
    c.ws.send(JSON.stringify({ type: 'typing', chat_id: chatId, state: 'dancing' }));
    // a frame that does go through shows the ones before it were processed and dropped
    const admin = await connect(rt.adminEmail);
    typing(admin, 'start');
    await eventually(async () => typingFrames(b).find((f) => f.properties.email === rt.adminEmail), 5_000, 'admin start');
    await settle();
    expect(typingFrames(b).filter((f) => f.properties.email !== rt.adminEmail)).toEqual([]);
    expect(typingFrames(c)).toEqual([]);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });
});
