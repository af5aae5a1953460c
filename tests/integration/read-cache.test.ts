import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { documentClient } from '../../shared/db/client.ts';
import { db } from '../../shared/db/service.ts';
import { setSingleWriter } from '../../shared/db/read-cache.ts';
import { addConnection, listOrgConnections, removeConnection } from '../../shared/realtime/connections.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * The local runtime's read caches (shared/db/read-cache.ts, issue 14's read path): a repeated
 * chat-list page, message page or member-state read makes no DynamoDB call, and every write —
 * a webhook's message, an assignment, a pin, a 'close for me', a row patched straight through the
 * table client — shows on the very next request. Queries are counted through the document client's
 * middleware.
 */
let rt: TestRuntime;
let admin: string;
let member: string;
const queries: string[] = [];
/** every Query's input, for counting one entity's queries (queriesOf) */
const allQueries: string[] = [];
const queriesOf = (skPrefix: string) => allQueries.filter((q) => q.includes(skPrefix)).length;
const enc = encodeURIComponent;
const wa = (n: number) => `1555777${String(n).padStart(4, '0')}`;
const chatOf = (n: number) => `${wa(n)}@c.us`;

beforeAll(async () => {
  rt = await startTestRuntime();
  [admin, member] = await Promise.all([rt.signIn(rt.adminEmail), rt.signIn(rt.memberEmail)]);
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify((args as { input?: unknown }).input ?? {});
      // the chat-list index pages, the message pages and the member states of this org
      if (context.commandName === 'QueryCommand') allQueries.push(input);
      if (context.commandName === 'QueryCommand' && input.includes(`org_id_${rt.orgId.toLowerCase()}`) && /inbox_state_|#chat_id_|#email_/.test(input)) queries.push(input);
      return next(args);
    },
    { step: 'initialize', name: 'readCacheTestCounter' },
  );
  for (let n = 1; n <= 3; n++) await rt.postWebhook(inboundText(rt.phone, wa(n), `Hello ${n}`));
  await rt.idle();
});
afterAll(async () => {
  setSingleWriter(false);
  await rt?.cleanup();
});

const get = async <T>(token: string, path: string): Promise<T> => rt.orgJson<T>(token, path);
const chats = async (token: string, q = '') => (await get<{ chats: Chat[] }>(token, `/chats?limit=50${q}`)).chats;
const messages = async (token: string, n: number) => (await get<{ messages: Message[] }>(token, `/chats/${enc(chatOf(n))}/messages?limit=50`)).messages;
const counted = async <T>(fn: () => Promise<T>): Promise<{ value: T; queries: number }> => {
  queries.length = 0;
  const value = await fn();
  return { value, queries: queries.length };
};

describe('read caches of the local runtime', () => {
  it('a repeated chat-list page, message page and member-state read makes no Query', async () => {
    await chats(admin);
    await messages(admin, 1);
    const list = await counted(() => chats(admin));
    expect(list.value.map((c) => c.chat_id).slice(0, 3)).toEqual([chatOf(3), chatOf(2), chatOf(1)]);
    expect(list.queries).toBe(0);
    const thread = await counted(() => messages(admin, 1));
    expect(thread.value.map((m) => m.body)).toEqual(['Hello 1']);
    expect(thread.queries).toBe(0);
  });

  it('a new message shows on the next list and thread read', async () => {
    await chats(admin);
    await messages(admin, 1);
    await rt.postWebhook(inboundText(rt.phone, wa(1), 'Second'));
    await rt.idle();
    const list = await chats(admin);
    expect(list[0]!.chat_id).toBe(chatOf(1));
    expect(list[0]!.latest_message?.body).toBe('Second');
    expect((await messages(admin, 1)).map((m) => m.body)).toEqual(['Second', 'Hello 1']);
  });

  it('an assignment, a pin and a close-for-me show on the very next request', async () => {
    expect((await chats(member, '&assignee=me')).map((c) => c.chat_id)).toEqual([]);
    const assigned = await rt.orgCall(admin, 'POST', '/chats/assign', { chat_ids: [chatOf(2)], assigned_to: rt.memberEmail });
    expect(assigned.status).toBe(200);
    expect((await chats(member, '&assignee=me')).map((c) => c.chat_id)).toEqual([chatOf(2)]);

    expect((await chats(member)).find((c) => c.chat_id === chatOf(3))?.is_pinned).toBe(false);
    await rt.orgCall(member, 'POST', '/chats/pin', { chat_ids: [chatOf(3)], is_pinned: true });
    expect((await chats(member)).find((c) => c.chat_id === chatOf(3))?.is_pinned).toBe(true);

    const closed = await rt.orgCall<{ failed: unknown[] }>(member, 'POST', '/chats/close', { chat_ids: [chatOf(3)], is_closed: true, type: 'me' });
    expect(closed.body.failed).toEqual([]);
    expect((await chats(member)).map((c) => c.chat_id)).not.toContain(chatOf(3));
    expect((await chats(admin)).map((c) => c.chat_id)).toContain(chatOf(3));
  });

  it('a row written straight through the table client shows on the next request', async () => {
    await chats(admin);
    await db().entities.chat.patch({ org_id: rt.orgId, chat_id: chatOf(2) }).set({ chat_name: 'Renamed underneath' }).go();
    expect((await chats(admin)).find((c) => c.chat_id === chatOf(2))?.chat_name).toBe('Renamed underneath');
  });

  it("an org's socket connections are read once, and a connection added or removed shows on the next read", async () => {
    const connQueries = () => queriesOf('$connection_1');
    const first = await listOrgConnections(rt.orgId);
    const before = connQueries();
    expect(await listOrgConnections(rt.orgId)).toBe(first);
    expect(connQueries()).toBe(before);
    const actor = { email: rt.adminEmail, user_id: 'u-cache', org_id: rt.orgId, role: 'admin' as const };
    await addConnection(actor, 'conn-read-cache-1');
    expect((await listOrgConnections(rt.orgId)).map((c) => c.connection_id)).toContain('conn-read-cache-1');
    await removeConnection('conn-read-cache-1');
    expect((await listOrgConnections(rt.orgId)).map((c) => c.connection_id)).not.toContain('conn-read-cache-1');
  });

  it('with the caches off (AWS: many writers) every read queries', async () => {
    setSingleWriter(false);
    try {
      await chats(admin);
      expect((await counted(() => chats(admin))).queries).toBeGreaterThan(0);
      expect((await counted(() => messages(admin, 1))).queries).toBeGreaterThan(0);
    } finally {
      setSingleWriter(true);
    }
  });
});
