import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { seedDemo } from '../../scripts/local/seed.ts';
import { eventually } from '../factories/wait.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { ApiKey, ApiRequestLog } from '../../shared/apikey/api-key.schemas.ts';

/**
 * The public REST API (issue 20) on the local runtime: admins create, list and revoke keys (shown
 * once, stored hashed, last used), a key acts as an org-level actor on /v1 through the same use
 * cases as the web API (chats, messages, assign, label, close, snooze, tickets, tasks, contacts),
 * scopes (read-only key on a write -> 403), revoked -> 401, another org -> 404, the per-key token
 * bucket (429 + Retry-After), and the request log.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
let otherOrg: string;
const wa = (n: number) => `1555777${String(n).padStart(4, '0')}`;
const chatOf = (n: number) => `${wa(n)}@c.us`;

const mkKey = async (scopes: string[], extra: Record<string, unknown> = {}) => {
  const r = await rt.orgCall<{ api_key: ApiKey; token: string }>(admin, 'POST', '/api-keys', { name: `key ${scopes.join(' ')}`.slice(0, 80), scopes, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
};
const v1 = async <T = Record<string, unknown>>(token: string | null, method: string, path: string, json?: unknown, org = rt.orgId) => {
  const r = await fetch(`${rt.url}/v1/orgs/${org}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  return { status: r.status, headers: r.headers, body: (await r.json()) as T };
};

let full: { api_key: ApiKey; token: string };

beforeAll(async () => {
  rt = await startTestRuntime();
  otherOrg = await seedDemo({ orgName: 'Other Co', admin: { email: 'o@public-api.chorus', sub: 'o', name: 'O' }, member: { email: 'm2@public-api.chorus', sub: 'm2', name: 'M2' }, phone: { phone_number_id: '444000777', display_phone_number: '15554440077' } });
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  for (let n = 1; n <= 3; n++) await rt.postWebhook(inboundText(rt.phone, wa(n), `Hello ${n}`));
  await rt.idle();
  full = await mkKey(['chats:write', 'messages:write', 'tickets:write', 'tasks:write', 'contacts:read', 'search:read']);
});
afterAll(async () => rt?.cleanup());

describe('API keys (admin routes)', () => {
  it('shows the token once, lists the key without secret, and members are refused', async () => {
    expect(full.token).toMatch(/^chk_[0-9A-Z]{26}_[A-Za-z0-9_-]{43}$/);
    const list = await rt.orgCall<{ api_keys: ApiKey[] }>(admin, 'GET', '/api-keys');
    expect(list.status).toBe(200);
    const listed = list.body.api_keys.find((k) => k.key_id === full.api_key.key_id)!;
    expect(listed).toMatchObject({ name: full.api_key.name, prefix: full.token.slice(0, 12), revoked_at: null });
    expect(JSON.stringify(list.body)).not.toContain(full.token.slice(31));
    for (const [m, p, b] of [['GET', '/api-keys', undefined], ['POST', '/api-keys', { name: 'x', scopes: ['chats:read'] }], ['DELETE', `/api-keys/${full.api_key.key_id}`, undefined], ['GET', '/api-keys/logs', undefined]] as const) {
      expect((await rt.orgCall(member, m, p, b)).status, `${m} ${p}`).toBe(403);
    }
  });

  it('refuses bad input with the field', async () => {
    const r = await rt.orgCall<{ error: { details: Array<{ field: string }> } }>(admin, 'POST', '/api-keys', { name: '', scopes: ['chats:admin'] });
    expect(r.status).toBe(400);
    expect(r.body.error.details.map((d) => d.field)).toEqual(expect.arrayContaining(['name', 'scopes.0']));
  });
});

describe('/v1 with a key', () => {
  it('lists and reads chats and messages, and stamps last_used_at', async () => {
    const chats = await v1<{ chats: Chat[] }>(full.token, 'GET', '/chats?limit=10');
    expect(chats.status).toBe(200);
    expect(chats.body.chats.map((c) => c.chat_id)).toEqual(expect.arrayContaining([chatOf(1), chatOf(2), chatOf(3)]));
    const one = await v1<{ chat: Chat }>(full.token, 'GET', `/chats/${encodeURIComponent(chatOf(1))}`);
    expect(one.body.chat.chat_id).toBe(chatOf(1));
    const msgs = await v1<{ messages: Message[] }>(full.token, 'GET', `/chats/${encodeURIComponent(chatOf(1))}/messages`);
    expect(msgs.body.messages[0]!.body).toBe('Hello 1');
    const listed = (await rt.orgCall<{ api_keys: ApiKey[] }>(admin, 'GET', '/api-keys')).body.api_keys.find((k) => k.key_id === full.api_key.key_id)!;
    expect(listed.last_used_at).toBeGreaterThan(0);
  });

  it('sends a message that the web API then shows', async () => {
    const sent = await v1<{ message: Message }>(full.token, 'POST', `/chats/${encodeURIComponent(chatOf(2))}/messages`, { body: 'From the API' });
    expect(sent.status).toBe(201);
    expect(sent.body.message).toMatchObject({ body: 'From the API', from_me: true });
    const web = await rt.orgCall<{ messages: Message[] }>(admin, 'GET', `/chats/${encodeURIComponent(chatOf(2))}/messages`);
    expect(web.body.messages.map((m) => m.body)).toContain('From the API');
    const bad = await v1<{ error: { details: Array<{ field: string }> } }>(full.token, 'POST', `/chats/${encodeURIComponent(chatOf(2))}/messages`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]!.field).toBe('body');
  });

  it('assigns, labels, snoozes and closes through the same workflow', async () => {
    const a = await v1<{ chats: Chat[]; failed: unknown[] }>(full.token, 'POST', '/chats/assign', { chat_ids: [chatOf(1)], assigned_to: rt.memberEmail });
    expect(a.status).toBe(200);
    expect(a.body.chats[0]!.assigned_to).toBe(rt.memberEmail);
    const label = await rt.orgCall<{ label: { label_id: string } }>(admin, 'POST', '/labels', { name: 'From API', color: '#ff0000' });
    expect(label.status, JSON.stringify(label.body)).toBe(201);
    const labelId = label.body.label.label_id;
    const l = await v1<{ chats: Chat[] }>(full.token, 'POST', '/chats/labels', { chat_ids: [chatOf(1)], add: [labelId] });
    expect(l.status, JSON.stringify(l.body)).toBe(200);
    expect(JSON.stringify(l.body.chats[0])).toContain(labelId);
    const s = await v1<{ chats: Chat[] }>(full.token, 'POST', '/chats/snooze', { chat_ids: [chatOf(3)], snooze_until: Date.now() + 3_600_000 });
    expect(s.status).toBe(200);
    const c = await v1<{ chats: Chat[] }>(full.token, 'POST', '/chats/close', { chat_ids: [chatOf(1)], is_closed: true });
    expect(c.status).toBe(200);
    const web = await rt.orgCall<{ chat: Chat }>(admin, 'GET', `/chats/${encodeURIComponent(chatOf(1))}`);
    expect(web.body.chat).toMatchObject({ assigned_to: rt.memberEmail, inbox_state: 'closed', closed_by: `apikey:${full.api_key.key_id}` });
  });

  it('creates and updates tickets and tasks, lists contacts', async () => {
    const msgs = await v1<{ messages: Message[] }>(full.token, 'GET', `/chats/${encodeURIComponent(chatOf(3))}/messages`);
    const uid = msgs.body.messages.find((m) => !m.from_me)!.unique_id;
    const t = await v1<{ ticket: { ticket_id: string; subject: string } }>(full.token, 'POST', '/tickets', { chat_id: chatOf(3), quoted_message_id: uid, subject: 'API ticket' });
    expect(t.status).toBe(201);
    const u = await v1<{ ticket: { status: string } }>(full.token, 'PATCH', `/tickets/${t.body.ticket.ticket_id}`, { status: 'inprogress' });
    expect(u.body.ticket.status).toBe('inprogress');
    const g = await v1<{ ticket: { subject: string } }>(full.token, 'GET', `/tickets/${t.body.ticket.ticket_id}`);
    expect(g.body.ticket.subject).toBe('API ticket');
    const task = await v1<{ task: { task_id: string; assignee: string | null; title: string } }>(full.token, 'POST', '/tasks', { title: 'Call back' });
    expect(task.status).toBe(201);
    expect(task.body.task.assignee).toBeNull();
    const tasks = await v1<{ tasks: Array<{ task_id: string }> }>(full.token, 'GET', '/tasks');
    expect(tasks.body.tasks.map((x) => x.task_id)).toContain(task.body.task.task_id);
    const contacts = await v1<{ contacts: Array<{ contact_id: string }> }>(full.token, 'GET', '/contacts');
    expect(contacts.status).toBe(200);
    expect(contacts.body.contacts.map((x) => x.contact_id)).toEqual(expect.arrayContaining([wa(1), wa(2), wa(3)]));
  });
});

describe('search (/v1/orgs/{org_id}/search)', () => {
  it("finds a customer's message with a search-scoped key; 400 names the field", async () => {
    const found = await eventually(async () => {
      const r = await v1<{ results: { messages: { items: Array<{ chat_id: string; snippet: string }> } } }>(full.token, 'GET', '/search?q=Hello&kind=messages');
      return r.status === 200 && r.body.results.messages.items.some((i) => i.chat_id === chatOf(2)) && r;
    });
    expect(found.body.results.messages.items[0]!.snippet).toContain('<mark>');
    const bad = await v1(full.token, 'GET', '/search?q=x&kind=nope');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('kind');
  });
});

describe('REST hooks for Zapier and Pabbly (/v1/orgs/{org_id}/hooks)', () => {
  it('subscribes, lists samples and unsubscribes with a webhooks-scoped key; a key without that scope gets 403', async () => {
    const hooksKey = await mkKey(['webhooks:write']);
    const sub = await v1<{ id: string; kind: string; events: string[] }>(hooksKey.token, 'POST', '/hooks', { target_url: 'https://hooks.zapier.com/hooks/standard/1/abc', event: 'ticket.created', source: 'zapier' });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    expect(sub.body).toMatchObject({ kind: 'zapier', events: ['ticket.created'] });
    // the admin's settings page lists it with the other endpoints
    const listed = await rt.orgCall<{ endpoints: Array<{ endpoint_id: string }> }>(admin, 'GET', '/webhooks');
    expect(JSON.stringify(listed.body)).toContain(sub.body.id);
    const samples = await v1<Array<{ type: string }>>(hooksKey.token, 'GET', '/hooks/samples/ticket.created');
    expect(samples.status).toBe(200);
    expect(samples.body[0]).toMatchObject({ type: 'ticket.created' });
    const bad = await v1<{ error: { message: string } }>(hooksKey.token, 'POST', '/hooks', { target_url: 'https://127.0.0.1/x', event: 'ticket.created', source: 'zapier' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('target_url');
    expect((await v1(full.token, 'POST', '/hooks', { target_url: 'https://hooks.zapier.com/x', event: 'ticket.created', source: 'zapier' })).status).toBe(403);
    expect((await v1(hooksKey.token, 'DELETE', `/hooks/${sub.body.id}`)).status).toBe(200);
    expect((await v1(hooksKey.token, 'DELETE', `/hooks/${sub.body.id}`)).status).toBe(404);
  });
});

describe('refusals', () => {
  it('no key or a bad key -> 401; a JWT is not an API key', async () => {
    expect((await v1(null, 'GET', '/chats')).status).toBe(401);
    expect((await v1('chk_nope', 'GET', '/chats')).status).toBe(401);
    expect((await v1(admin, 'GET', '/chats')).status).toBe(401);
    expect((await v1(full.token.slice(0, -2) + 'xx', 'GET', '/chats')).status).toBe(401);
  });

  it('a read-only key may read but not write (403 naming the scope)', async () => {
    const ro = await mkKey(['chats:read', 'messages:read']);
    expect((await v1(ro.token, 'GET', '/chats')).status).toBe(200);
    const w = await v1<{ error: { code: string } }>(ro.token, 'POST', `/chats/${encodeURIComponent(chatOf(1))}/messages`, { body: 'no' });
    expect(w.status).toBe(403);
    expect(w.body.error.code).toBe('api_key.scope_missing');
    expect((await v1(ro.token, 'GET', '/tickets')).status).toBe(403);
  });

  it("a key of org A never reaches org B (404, same as a missing org)", async () => {
    expect((await v1(full.token, 'GET', '/chats', undefined, otherOrg)).status).toBe(404);
    expect((await v1(full.token, 'POST', '/chats/assign', { chat_ids: [chatOf(1)], assigned_to: null }, otherOrg)).status).toBe(404);
  });

  it('a revoked key -> 401 at once', async () => {
    const k = await mkKey(['chats:read']);
    expect((await v1(k.token, 'GET', '/chats')).status).toBe(200);
    const r = await rt.orgCall<{ api_key: ApiKey }>(admin, 'DELETE', `/api-keys/${k.api_key.key_id}`);
    expect(r.body.api_key.revoked_at).toBeGreaterThan(0);
    expect((await v1(k.token, 'GET', '/chats')).status).toBe(401);
  });

  it('rate limit: the token bucket answers 429 with Retry-After', async () => {
    const k = await mkKey(['chats:read'], { rate_limit: 2 });
    expect((await v1(k.token, 'GET', '/chats')).status).toBe(200);
    expect((await v1(k.token, 'GET', '/chats')).status).toBe(200);
    const r = await v1<{ error: { code: string } }>(k.token, 'GET', '/chats');
    expect(r.status).toBe(429);
    expect(r.body.error.code).toBe('api_key.rate_limited');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('request log', () => {
  it('logs every request of a key with route, status and latency', async () => {
    const logs = await eventually(async () => {
      const r = await rt.orgCall<{ logs: ApiRequestLog[] }>(admin, 'GET', '/api-keys/logs');
      return r.body.logs.some((l) => l.status === 429) ? r.body.logs : undefined;
    }, 5_000, 'logs');
    const mine = logs.filter((l) => l.key_id === full.api_key.key_id);
    expect(mine.map((l) => l.route)).toEqual(expect.arrayContaining(['GET /v1/orgs/{org_id}/chats', 'POST /v1/orgs/{org_id}/chats/{chat_id}/messages']));
    expect(mine.find((l) => l.route === 'POST /v1/orgs/{org_id}/chats/{chat_id}/messages' && l.status === 400)).toBeTruthy();
    expect(mine.every((l) => l.latency_ms >= 0 && l.at > 0)).toBe(true);
    expect(logs.map((l) => l.at)).toEqual([...logs.map((l) => l.at)].sort((a, b) => b - a));
  });
});
