import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { eventually } from '../factories/wait.ts';
import { MCP_TOOL_SCOPES } from '../../functions/http/mcp/server.ts';
import type { ApiKey, ApiRequestLog } from '../../shared/apikey/api-key.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * The MCP server (issue 20) with the official SDK client: over streamable HTTP at /mcp (API-key
 * auth) and over stdio (`npm run mcp`'s script, spawned as a child process with the key in its
 * env); lists the tools, calls them (the changes show in the web API), and a key without a tool's
 * scope gets a tool error while nothing changes; a bad key cannot connect.
 */
let rt: TestRuntime;
let admin: string;
const wa = (n: number) => `1555888${String(n).padStart(4, '0')}`;
const chatOf = (n: number) => `${wa(n)}@c.us`;
const clients: Client[] = [];

const mkKey = async (name: string, scopes: string[]) => {
  const r = await rt.orgCall<{ api_key: ApiKey; token: string }>(admin, 'POST', '/api-keys', { name, scopes });
  expect(r.status).toBe(201);
  return r.body;
};
const httpClient = async (token: string) => {
  const c = new Client({ name: 'chorus-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${rt.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(c);
  return c;
};
const textOf = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;
const parsed = <T>(r: unknown): T => {
  const t = textOf(r);
  if ((r as { isError?: boolean }).isError) throw new Error(t);
  return JSON.parse(t) as T;
};

let writer: { token: string; api_key: ApiKey };
let reader: { token: string; api_key: ApiKey };

beforeAll(async () => {
  rt = await startTestRuntime();
  admin = await rt.signIn(rt.adminEmail);
  for (let n = 1; n <= 2; n++) await rt.postWebhook(inboundText(rt.phone, wa(n), `Hi ${n}`));
  await rt.idle();
  writer = await mkKey('assistant', ['chats:write', 'messages:write', 'tickets:write', 'tasks:write', 'contacts:read', 'search:read']);
  reader = await mkKey('reader', ['chats:read', 'messages:read']);
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await rt?.cleanup();
});

describe('MCP over streamable HTTP', () => {
  it('lists every tool', async () => {
    const c = await httpClient(writer.token);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(MCP_TOOL_SCOPES).sort());
    const send = tools.find((t) => t.name === 'send_message')!;
    expect(send.inputSchema.properties).toHaveProperty('chat_id');
    expect(send.inputSchema.properties).toHaveProperty('body');
  });

  it('calls tools: list chats, read a chat, send, assign, close, ticket, task, contacts', async () => {
    const c = await httpClient(writer.token);
    const listed = parsed<{ chats: Chat[] }>(await c.callTool({ name: 'list_chats', arguments: {} }));
    expect(listed.chats.map((x) => x.chat_id)).toEqual(expect.arrayContaining([chatOf(1), chatOf(2)]));
    const read = parsed<{ chat: Chat; messages: Message[] }>(await c.callTool({ name: 'read_chat', arguments: { chat_id: chatOf(1) } }));
    expect(read.messages[0]!.body).toBe('Hi 1');
    const sent = await c.callTool({ name: 'send_message', arguments: { chat_id: chatOf(1), body: 'Sent by an assistant' } });
    expect(sent.isError).toBeFalsy();
    const web = await rt.orgCall<{ messages: Message[] }>(admin, 'GET', `/chats/${encodeURIComponent(chatOf(1))}/messages`);
    expect(web.body.messages.map((m) => m.body)).toContain('Sent by an assistant');
    const assigned = await c.callTool({ name: 'assign_chat', arguments: { chat_ids: [chatOf(2)], assigned_to: rt.memberEmail } });
    expect(assigned.isError, textOf(assigned)).toBeFalsy();
    const closed = await c.callTool({ name: 'close_chat', arguments: { chat_ids: [chatOf(2)] } });
    expect(closed.isError, textOf(closed)).toBeFalsy();
    const chat2 = (await rt.orgCall<{ chat: Chat }>(admin, 'GET', `/chats/${encodeURIComponent(chatOf(2))}`)).body.chat;
    expect(chat2).toMatchObject({ assigned_to: rt.memberEmail, inbox_state: 'closed' });
    const uid = read.messages.find((m) => !m.from_me)!.unique_id;
    const ticket = parsed<{ ticket: { ticket_id: string } }>(await c.callTool({ name: 'create_ticket', arguments: { chat_id: chatOf(1), quoted_message_id: uid, subject: 'Refund request' } }));
    const upd = parsed<{ ticket: { status: string } }>(await c.callTool({ name: 'update_ticket', arguments: { ticket_id: ticket.ticket.ticket_id, status: 'closed' } }));
    expect(upd.ticket.status).toBe('closed');
    const task = parsed<{ task: { title: string; assignee: null } }>(await c.callTool({ name: 'create_task', arguments: { title: 'Follow up', associated_object_metadata: { type: 'chat', id: chatOf(1), object: { chat_id: chatOf(1) } } } }));
    expect(task.task).toMatchObject({ title: 'Follow up', assignee: null });
    const contacts = parsed<{ contacts: Array<{ contact_id: string }> }>(await c.callTool({ name: 'list_contacts', arguments: {} }));
    expect(contacts.contacts.map((x) => x.contact_id)).toEqual(expect.arrayContaining([wa(1), wa(2)]));
    // search_messages: the customer's words (indexed from the events, so eventually), with the match marked
    const found = await eventually(async () => {
      const r = parsed<{ messages: { items: Array<{ chat_id: string; snippet: string }> } }>(await c.callTool({ name: 'search_messages', arguments: { q: 'Hi' } }));
      return r.messages.items.some((i) => i.chat_id === chatOf(2)) && r;
    });
    expect(found.messages.items.find((i) => i.chat_id === chatOf(2))!.snippet).toContain('<mark>');
    const missing = await c.callTool({ name: 'read_chat', arguments: { chat_id: 'nope@c.us' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^404 chat\.not_found/);
  });

  it("refuses a tool outside the key's scopes, and nothing changes", async () => {
    const c = await httpClient(reader.token);
    expect((await c.callTool({ name: 'list_chats', arguments: {} })).isError).toBeFalsy();
    const denied = await c.callTool({ name: 'send_message', arguments: { chat_id: chatOf(2), body: 'must not be sent' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('messages:write');
    const denied2 = await c.callTool({ name: 'list_contacts', arguments: {} });
    expect(denied2.isError).toBe(true);
    const web = await rt.orgCall<{ messages: Message[] }>(admin, 'GET', `/chats/${encodeURIComponent(chatOf(2))}/messages`);
    expect(web.body.messages.map((m) => m.body)).not.toContain('must not be sent');
  });

  it('a bad or revoked key cannot connect (401), and requests are logged', async () => {
    await expect(httpClient('chk_bad')).rejects.toThrow();
    const k = await mkKey('short-lived', ['chats:read']);
    await rt.orgCall(admin, 'DELETE', `/api-keys/${k.api_key.key_id}`);
    await expect(httpClient(k.token)).rejects.toThrow();
    const logs = (await rt.orgCall<{ logs: ApiRequestLog[] }>(admin, 'GET', '/api-keys/logs')).body.logs;
    expect(logs.some((l) => l.route === 'POST /mcp' && l.key_id === writer.api_key.key_id && l.status === 200)).toBe(true);
  });
});

describe('MCP over stdio (npm run mcp)', () => {
  it('the SDK client spawns the server with the key in its env, lists and calls tools, and scopes hold', async () => {
    const spawn = (token: string) =>
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', join(process.cwd(), 'scripts/mcp.ts')],
        env: { ...getDefaultEnvironment(), CHORUS_API_KEY: token, CHORUS_API_URL: rt.url },
        stderr: 'pipe',
      });
    const c = new Client({ name: 'chorus-stdio-test', version: '1.0.0' });
    await c.connect(spawn(reader.token));
    clients.push(c);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).toContain('read_chat');
    const read = parsed<{ chat: Chat }>(await c.callTool({ name: 'read_chat', arguments: { chat_id: chatOf(2) } }));
    expect(read.chat.chat_id).toBe(chatOf(2));
    const denied = await c.callTool({ name: 'create_task', arguments: { title: 'no' } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('tasks:write');
  }, 60_000);
});
