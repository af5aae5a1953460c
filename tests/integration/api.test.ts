import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * HTTP API: authentication, org membership on every route (another org's data is 404),
 * validation (400 with field and reason), size limit (413), pagination, mark read.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let outsider: string;
let otherOrg: string;
const chatA = '15551110001@c.us';
const otherChat = '15552220001@c.us';
const otherPhone = { phone_number_id: '222000111', display_phone_number: '15552220000' };
const enc = encodeURIComponent;

beforeAll(async () => {
  rt = await startTestRuntime();
  const outsiderEmail = 'outsider@other.chorus';
  const sub = await rt.createUser(outsiderEmail, rt.password);
  otherOrg = await seedDemo({
    orgName: 'Other Co',
    admin: { email: outsiderEmail, sub, name: 'Outsider' },
    member: { email: 'member2@other.chorus', sub: 'x', name: 'M2' },
    phone: otherPhone,
  });
  [admin, member, outsider] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail), rt.signIn(outsiderEmail)]);
  let ts = 1_790_100_000;
  for (let i = 0; i < 5; i++) await rt.postWebhook(inboundText(rt.phone, `1555111000${i + 1}`, `hello ${i}`, { timestampS: ts++ }));
  for (let i = 0; i < 3; i++) await rt.postWebhook(inboundText(rt.phone, '15551110001', `more ${i}`, { timestampS: ts++ }));
  await rt.postWebhook(inboundText(otherPhone, '15552220001', 'other org secret', { timestampS: ts++ }));
  await rt.idle();
});
afterAll(async () => rt?.cleanup());

const routes = (org: string, chat: string) => [
  ['GET', `/api/orgs/${org}/chats`],
  ['GET', `/api/orgs/${org}/chats/${enc(chat)}`],
  ['GET', `/api/orgs/${org}/chats/${enc(chat)}/messages`],
  ['POST', `/api/orgs/${org}/chats/${enc(chat)}/messages`],
  ['POST', `/api/orgs/${org}/chats/${enc(chat)}/read`],
] as const;

describe('authentication', () => {
  it.each([...routes('x', 'y'), ['GET', '/api/me'] as const])('%s %s without a token is 401', async (method, path) => {
    const r = await rt.api(null, path, { method, json: method === 'POST' ? { body: 'x' } : undefined });
    expect(r.status).toBe(401);
  });
  it('a forged token is 401', async () => {
    const [h, p] = admin.split('.');
    expect((await rt.api(`${h}.${p}.AAAA`, '/api/me')).status).toBe(401);
  });
});

describe('organization membership', () => {
  it('GET /api/me lists only my orgs, with role and phones', async () => {
    const me = (await (await rt.api(member, '/api/me')).json()) as { user: { email: string }; orgs: Array<{ org_id: string; role: string; phones: unknown[] }> };
    expect(me.user.email).toBe(rt.memberEmail);
    expect(me.orgs).toEqual([expect.objectContaining({ org_id: rt.orgId, role: 'member', phones: [{ phone_id: rt.phone.phone_number_id, org_phone: rt.phone.display_phone_number, connection_type: 'wa_cloud' }], mask_phone_numbers: false })]);
  });

  it.each(routes('ORG', otherChat))('%s %s of another org is 404 and leaks nothing', async (method, template) => {
    const path = template.replace('ORG', '__OTHER__');
    const r = await rt.api(admin, path.replace('__OTHER__', otherOrg), { method, json: method === 'POST' ? { body: 'x' } : undefined });
    expect(r.status).toBe(404);
    const text = await r.text();
    expect(text).not.toContain('other org secret');
    expect(JSON.parse(text).error.code).toBe('organization.not_found');
  });

  it('the other org’s own member does see it (the 404 is about membership)', async () => {
    const r = await rt.api(outsider, `/api/orgs/${otherOrg}/chats`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { chats: Chat[] }).chats.map((c) => c.chat_id)).toEqual([otherChat]);
  });

  it('a chat id of another org inside my org is 404 chat.not_found', async () => {
    const r = await rt.api(admin, `/api/orgs/${rt.orgId}/chats/${enc(otherChat)}`);
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('chat.not_found');
  });
});

describe('validation', () => {
  const send = (json: unknown, raw?: string) =>
    rt.api(admin, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}/messages`, raw !== undefined ? { method: 'POST', body: raw, headers: { 'content-type': 'application/json' } } : { method: 'POST', json });

  it.each([
    [{}, 'body', 'is required'],
    [{ body: '   ' }, 'body', 'must not be empty'],
    [{ body: 5 }, 'body', 'must be text'],
    [{ body: 'x'.repeat(4097) }, 'body', 'must be at most 4096 characters'],
    [{ body: 'ok', quoted_message_id: '' }, 'quoted_message_id', 'must not be empty'],
    [{ body: 'ok', quoted_message_id: 'wamid.nope' }, 'quoted_message_id', 'is not a message of this chat'],
    [{ body: 'ok', client_id: 'a b' }, 'client_id', 'must be 1 to 64 letters, digits or dashes'],
  ])('%j -> 400 %s %s', async (json, field, reason) => {
    const r = await send(json);
    expect(r.status).toBe(400);
    const e = ((await r.json()) as { error: { code: string; details: Array<{ field: string; reason: string }> } }).error;
    expect(e.details).toContainEqual({ field, reason });
  });

  it('malformed JSON is 400 body must be valid JSON', async () => {
    const r = await send(undefined, '{"body":');
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { details: unknown } }).error.details).toEqual([{ field: 'body', reason: 'must be valid JSON' }]);
  });

  it('bodies over 1 MiB are 413 and nothing is written', async () => {
    const r = await send({ body: 'x'.repeat(1024 * 1024 + 10) });
    expect(r.status).toBe(413);
    const msgs = (await (await rt.api(admin, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}/messages?limit=50`)).json()) as { messages: Message[] };
    expect(msgs.messages.every((m) => (m.body ?? '').length < 1000)).toBe(true);
  });

  it('bad page queries are 400 with the field', async () => {
    const r = await rt.api(admin, `/api/orgs/${rt.orgId}/chats?limit=5000`);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { details: unknown } }).error.details).toEqual([{ field: 'query.limit', reason: 'must be at most 1000' }]);
  });
});

describe('lists and reads', () => {
  it('chats come newest first and page with a cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${enc(cursor)}` : '';
      const page = (await (await rt.api(member, `/api/orgs/${rt.orgId}/chats?limit=2${q}`)).json()) as { chats: Chat[]; cursor: string | null };
      expect(page.chats.length).toBeLessThanOrEqual(2);
      seen.push(...page.chats.map((c) => c.chat_id));
      cursor = page.cursor;
    } while (cursor);
    expect(seen).toEqual(['15551110001@c.us', '15551110005@c.us', '15551110004@c.us', '15551110003@c.us', '15551110002@c.us']);
  });

  it('messages come newest first and page with a cursor', async () => {
    const first = (await (await rt.api(member, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}/messages?limit=2`)).json()) as { messages: Message[]; cursor: string };
    expect(first.messages.map((m) => m.body)).toEqual(['more 2', 'more 1']);
    const second = (await (await rt.api(member, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}/messages?limit=2&cursor=${enc(first.cursor)}`)).json()) as { messages: Message[]; cursor: string | null };
    expect(second.messages.map((m) => m.body)).toEqual(['more 0', 'hello 0']);
  });

  it('mark read zeroes unread per phone', async () => {
    const before = (await (await rt.api(member, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}`)).json()) as { chat: Chat };
    expect(before.chat.unread_count).toEqual({ [rt.phone.display_phone_number]: 4 });
    const r = await rt.api(member, `/api/orgs/${rt.orgId}/chats/${enc(chatA)}/read`, { method: 'POST' });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { chat: Chat }).chat).toMatchObject({ unread_count: { [rt.phone.display_phone_number]: 0 }, message_unread_count: 0 });
  });

  it('sending returns 201 with a pending message that tops the chat list', async () => {
    const r = await rt.api(member, `/api/orgs/${rt.orgId}/chats/${enc('15551110003@c.us')}/messages`, { method: 'POST', json: { body: '<script>alert(1)</script>' } });
    expect(r.status).toBe(201);
    const m = ((await r.json()) as { message: Message }).message;
    expect(m).toMatchObject({ from_me: true, ack: 0, body: '<script>alert(1)</script>', author: rt.memberEmail });
    const chats = (await (await rt.api(member, `/api/orgs/${rt.orgId}/chats?limit=1`)).json()) as { chats: Chat[] };
    expect(chats.chats[0].chat_id).toBe('15551110003@c.us');
  });

  it('echoes the browser’s client_id on the stored message, so its optimistic bubble is replaced', async () => {
    const r = await rt.api(member, `/api/orgs/${rt.orgId}/chats/${enc('15551110003@c.us')}/messages`, { method: 'POST', json: { body: 'with an id', client_id: '3f2a9c1e-0b1d-4c55-9e1a-7d2b8e6f0a11' } });
    expect(r.status).toBe(201);
    const m = ((await r.json()) as { message: Message }).message;
    expect(m.client_id).toBe('3f2a9c1e-0b1d-4c55-9e1a-7d2b8e6f0a11');
    const page = (await (await rt.api(member, `/api/orgs/${rt.orgId}/chats/${enc('15551110003@c.us')}/messages?limit=1`)).json()) as { messages: Message[] };
    expect(page.messages[0]).toMatchObject({ unique_id: m.unique_id, client_id: '3f2a9c1e-0b1d-4c55-9e1a-7d2b8e6f0a11' });
  });
});
