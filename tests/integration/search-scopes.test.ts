import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * Issue 42: scopes mean what they say. `search:read` on GET /v1/orgs/{org_id}/search finds only
 * the kinds the key's other scopes may read (shared/search-api/search-api.rules.ts): chats need
 * chats:read; messages, notes and media messages:read; tickets tickets:read; contacts
 * contacts:read. Through the real /v1 route with keys of different scopes, over one chat whose
 * customer message, private note, ticket, contact and chat all carry the word 'quokka'.
 */
let rt: TestRuntime;
let admin: string;
const WORD = 'quokka';
const FROM = '15559990001';
const CHAT = `${FROM}@c.us`;
type Results = { results: Record<string, { items: Array<{ snippet: string }> }> };
type ApiError = { error: { code: string; message: string; details?: { scope?: string } } };

const mkKey = async (scopes: string[]) => {
  const r = await rt.orgCall<{ token: string }>(admin, 'POST', '/api-keys', { name: `key ${scopes.join(' ')}`.slice(0, 80), scopes });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.token;
};
const v1 = async <T>(token: string, method: string, path: string, json?: unknown) => {
  const r = await fetch(`${rt.url}/v1/orgs/${rt.orgId}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  return { status: r.status, body: (await r.json()) as T };
};
const searchAs = (token: string, kind = 'all') => v1<Results & ApiError>(token, 'GET', `/search?q=${WORD}&kind=${kind}`);
const kindsWithHits = (r: Results) => Object.entries(r.results).filter(([, v]) => v.items.length).map(([k]) => k).sort();

let full: string;

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  full = await mkKey(['chats:read', 'messages:write', 'tickets:write', 'contacts:read', 'search:read']);
  expect((await rt.postWebhook(inboundText(rt.phone, FROM, `My ${WORD} order is late`, { name: `Quinn ${WORD}` }))).status).toBe(200);
  await rt.idle();
  expect((await rt.orgCall(admin, 'POST', `/chats/${encodeURIComponent(CHAT)}/notes`, { body: `Private: the ${WORD} customer is a VIP` })).status).toBe(201);
  const msgs = await v1<{ messages: Message[] }>(full, 'GET', `/chats/${encodeURIComponent(CHAT)}/messages`);
  const uid = msgs.body.messages.find((m) => !m.from_me)!.unique_id;
  expect((await v1(full, 'POST', '/tickets', { chat_id: CHAT, quoted_message_id: uid, subject: `Late ${WORD} parcel` })).status).toBe(201);
  await rt.idle();
  // everything indexed: a key that may read every kind finds all of them
  await eventually(async () => {
    const r = await searchAs(full);
    return r.status === 200 && ['chats', 'contacts', 'messages', 'notes', 'tickets'].every((k) => r.body.results[k]?.items.length);
  }, 20_000, 'the search index');
}, 120_000);
afterAll(async () => rt?.cleanup());

describe('search:read finds only what the other scopes may read', () => {
  it('a key with only search:read reads nothing: 403 naming the scopes that would help', async () => {
    const only = await mkKey(['search:read']);
    const all = await searchAs(only);
    expect(all.status).toBe(403);
    expect(all.body.error).toMatchObject({ code: 'api_key.scope_missing' });
    expect(JSON.stringify(all.body)).not.toContain(WORD);
    const messages = await searchAs(only, 'messages');
    expect(messages.status).toBe(403);
    expect(messages.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { scope: 'messages:read' } });
  });

  it('search:read + tickets:read: tickets only, never a message body, note or contact', async () => {
    const key = await mkKey(['search:read', 'tickets:read']);
    const r = await searchAs(key);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.results)).toEqual(['tickets']);
    expect(r.body.results.tickets!.items[0]!.snippet).toContain(WORD);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain('order is late');
    expect(text).not.toContain('VIP');
    for (const kind of ['messages', 'notes', 'media', 'contacts', 'chats']) {
      const one = await searchAs(key, kind);
      expect(one.status, kind).toBe(403);
    }
    expect((await searchAs(key, 'notes')).body.error.details).toEqual({ scope: 'messages:read' });
    expect((await searchAs(key, 'contacts')).body.error.details).toEqual({ scope: 'contacts:read' });
  });

  it('messages:read (or write) opens messages, notes and media; contacts:read contacts; chats:read chats', async () => {
    const messages = await searchAs(await mkKey(['search:read', 'messages:write']));
    expect(Object.keys(messages.body.results).sort()).toEqual(['media', 'messages', 'notes']);
    expect(kindsWithHits(messages.body)).toEqual(['messages', 'notes']);
    const contacts = await searchAs(await mkKey(['search:read', 'contacts:read']));
    expect(Object.keys(contacts.body.results)).toEqual(['contacts']);
    expect(JSON.stringify(contacts.body)).not.toContain('order is late');
    const chats = await searchAs(await mkKey(['search:read', 'chats:read']));
    expect(Object.keys(chats.body.results)).toEqual(['chats']);
    expect(JSON.stringify(chats.body)).not.toContain('VIP');
  });

  it('without search:read the route stays closed whatever the other scopes', async () => {
    const r = await searchAs(await mkKey(['chats:read', 'messages:read', 'tickets:read', 'contacts:read']));
    expect(r.status).toBe(403);
    expect(r.body.error.details).toEqual({ scope: 'search:read' });
  });
});
