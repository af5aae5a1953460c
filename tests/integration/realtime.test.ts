import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { db } from '../../shared/db/service.ts';
import { eventually } from '../factories/wait.ts';

/** WebSocket API: $connect checks the JWT and membership; events reach only the org's members. */
let rt: TestRuntime;
let otherOrg: string;
let outsider: string;
const otherPhone = { phone_number_id: '333000111', display_phone_number: '15553330000' };

function connect(token: string, orgId: string): Promise<{ ws: WebSocket; messages: Array<{ type: string; properties: Record<string, unknown> }> } | { status: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${rt.port}/ws?token=${encodeURIComponent(token)}&org_id=${encodeURIComponent(orgId)}`);
    const messages: Array<{ type: string; properties: Record<string, unknown> }> = [];
    ws.on('message', (d) => messages.push(JSON.parse(String(d))));
    ws.on('open', () => resolve({ ws, messages }));
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('error', () => undefined);
  });
}

beforeAll(async () => {
  rt = await startTestRuntime();
  const email = 'outsider@rt.chorus';
  const sub = await rt.createUser(email, rt.password);
  otherOrg = await seedDemo({ orgName: 'Other', admin: { email, sub, name: 'O' }, member: { email: 'm@rt.chorus', sub: 'x', name: 'M' }, phone: otherPhone });
  outsider = await rt.signIn(email);
});
afterAll(async () => rt?.cleanup());

describe('$connect', () => {
  it('refuses a missing or bad token with 401', async () => {
    expect(await connect('', rt.orgId)).toEqual({ status: 401 });
    expect(await connect('not.a.jwt', rt.orgId)).toEqual({ status: 401 });
  });
  it('refuses an org the user is not a member of with 404', async () => {
    expect(await connect(outsider, rt.orgId)).toEqual({ status: 404 });
  });
});

describe('fan-out', () => {
  it('pushes an inbound message to every member of the org and to nobody else', async () => {
    const a = await connect(await rt.signIn(rt.adminEmail), rt.orgId);
    const m = await connect(await rt.signIn(rt.memberEmail), rt.orgId);
    const o = await connect(outsider, otherOrg);
    if (!('ws' in a) || !('ws' in m) || !('ws' in o)) throw new Error('connect failed');
    await rt.postWebhook(inboundText(rt.phone, '15554440001', 'live!'));
    await rt.idle();
    for (const c of [a, m]) {
      const ev = c.messages.find((x) => x.type === 'message.received');
      expect(ev?.properties).toMatchObject({ org_id: rt.orgId, chat: { chat_id: '15554440001@c.us' }, message: { body: 'live!', from_me: false } });
    }
    expect(o.messages).toEqual([]);
    // the other org's traffic does not reach us either
    await rt.postWebhook(inboundText(otherPhone, '15554440002', 'theirs'));
    await rt.idle();
    expect(a.messages.some((x) => JSON.stringify(x).includes('theirs'))).toBe(false);
    expect(o.messages.some((x) => x.type === 'message.received')).toBe(true);
    for (const c of [a, m, o]) c.ws.close();
  });

  it('stores connections per org and forgets closed ones', async () => {
    const count = async () => (await db().entities.connection.query.byOrg({ org_id: rt.orgId }).go()).data.length;
    await eventually(async () => (await count()) === 0, 5000, 'earlier sockets forgotten');
    const before = 0;
    const c = await connect(await rt.signIn(rt.adminEmail), rt.orgId);
    if (!('ws' in c)) throw new Error('connect failed');
    expect(await count()).toBe(before + 1);
    c.ws.close();
    await eventually(async () => (await count()) === before, 5000, 'connection removed');
    await rt.postWebhook(inboundText(rt.phone, '15554440003', 'after close'));
    await rt.idle();
    expect(rt.queues.get('realtime-fanout')!.deadLettered).toBe(0);
  });
});
