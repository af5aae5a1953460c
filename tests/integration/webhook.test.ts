import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { envelope, inboundMessage, inboundText, newWamid, statusUpdate } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { documentClient } from '../../shared/db/client.ts';
import { OUTBOX_ENTITY_NAME } from '../../shared/outbox/outbox-event.entity.ts';
import type { Message } from '../../shared/message/message.schemas.ts';
import type { Chat } from '../../shared/chat/chat.schemas.ts';

/**
 * WhatsApp Cloud API connector against the real local runtime: verification, signatures,
 * every message type stored, dedupe, statuses (incl. before their message), failures.
 */
let rt: TestRuntime;
let token: string;
const fixture = (n: string) => readFileSync(join(import.meta.dirname, '../fixtures/whatsapp-cloud', n), 'utf8');

async function messagesOf(chatId: string): Promise<Message[]> {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}/messages?limit=100`);
  return ((await r.json()) as { messages: Message[] }).messages;
}
type TxItems = Array<{ Put?: { Item: Record<string, unknown> } }>;
/** The TransactWriteItems this process sends while `post` (a webhook) is answered 200 and the runtime drains: each one's items. */
async function transactionsOf(post: () => Promise<Response>): Promise<TxItems[]> {
  const txs: TxItems[] = [];
  documentClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'TransactWriteItemsCommand') txs.push((args.input as { TransactItems: TxItems }).TransactItems);
      return next(args);
    },
    { step: 'initialize', name: 'watchTransactions' },
  );
  try {
    expect((await post()).status).toBe(200);
    await rt.idle();
  } finally {
    documentClient().middlewareStack.remove('watchTransactions');
  }
  return txs;
}
/**
 * One webhook body of `count` text messages from `from`, each `k` and `chars` two-byte characters,
 * stored; @returns the body of message k, and the transactions that stored them (transactionsOf).
 */
async function postLongBatch(from: string, count: number, chars: number): Promise<{ long: (k: number) => string; txs: TxItems[] }> {
  const long = (k: number) => `${k} ${'é'.repeat(chars)}`;
  const messages = Array.from({ length: count }, (_, k) => ({ from, id: newWamid(), timestamp: String(1_790_200_000 + k), type: 'text', text: { body: long(k) } }));
  const txs = await transactionsOf(() => rt.postWebhook(JSON.stringify(envelope(rt.phone, { contacts: [{ wa_id: from, profile: { name: `Long ${from}` } }], messages }))));
  return { long, txs };
}
async function chatOf(chatId: string): Promise<Chat> {
  const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}`);
  return ((await r.json()) as { chat: Chat }).chat;
}

beforeAll(async () => {
  rt = await startTestRuntime();
  token = await rt.signIn(rt.adminEmail);
});
afterAll(async () => rt?.cleanup());

describe('GET /webhooks/whatsapp verification', () => {
  it('returns hub.challenge for the right token', async () => {
    const r = await fetch(`${rt.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${rt.env.WHATSAPP_VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('1158201444');
  });
  it.each([
    ['wrong token', 'hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1'],
    ['wrong mode', `hub.mode=unsubscribe&hub.verify_token=chorus-local-verify-token&hub.challenge=1`],
    ['nothing', ''],
  ])('403 for %s', async (_n, q) => {
    expect((await fetch(`${rt.url}/webhooks/whatsapp?${q}`)).status).toBe(403);
  });
});

describe('POST /webhooks/whatsapp', () => {
  it('401 and nothing stored for a missing or bad signature', async () => {
    const raw = JSON.stringify(inboundText(rt.phone, '19990000001', 'sneaky'));
    expect((await rt.postWebhook(raw, null)).status).toBe(401);
    expect((await rt.postWebhook(raw, 'sha256=' + '0'.repeat(64))).status).toBe(401);
    await rt.idle();
    expect((await db().entities.chat.get({ org_id: rt.orgId, chat_id: '19990000001@c.us' }).go()).data).toBeNull();
  });

  it('stores Meta’s text fixture once, however often Meta retries it', async () => {
    const raw = fixture('01_text.json');
    for (let i = 0; i < 3; i++) expect((await rt.postWebhook(raw)).status).toBe(200);
    await rt.idle();
    const msgs = await messagesOf('16505551234@c.us');
    expect(msgs.filter((m) => m.message_id === 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=')).toHaveLength(1);
    const chat = await chatOf('16505551234@c.us');
    expect(chat.unread_count).toEqual({ [rt.phone.display_phone_number]: 1 });
    expect(chat.chat_name).toBe('Sheena Nelson');
    expect(chat.latest_message?.body).toBe('Does it come in another color?');
  });

  it('stores every documented message type', async () => {
    const from = '15550001111';
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['image', { image: { id: 'm1', mime_type: 'image/jpeg', caption: 'pic' } }, 'image'],
      ['video', { video: { id: 'm2', mime_type: 'video/mp4' } }, 'video'],
      ['audio', { audio: { id: 'm3', mime_type: 'audio/ogg', voice: true } }, 'ptt'],
      ['audio', { audio: { id: 'm3b', mime_type: 'audio/mpeg' } }, 'audio'],
      ['document', { document: { id: 'm4', mime_type: 'application/pdf', filename: 'a.pdf' } }, 'document'],
      ['sticker', { sticker: { id: 'm5', mime_type: 'image/webp' } }, 'sticker'],
      ['location', { location: { latitude: 1.5, longitude: 2.5, name: 'Shop' } }, 'location'],
      ['contacts', { contacts: [{ name: { formatted_name: 'Ana' }, phones: [{ phone: '+1' }] }] }, 'contacts'],
      ['button', { button: { payload: 'P', text: 'Yes please' } }, 'button'],
      ['interactive', { interactive: { type: 'list_reply', list_reply: { id: 'l', title: 'Blue' } } }, 'interactive'],
      ['unsupported', { unsupported: { type: 'poll_creation' }, errors: [{ code: 131051, title: 'Message type unknown' }] }, 'unsupported'],
    ];
    let ts = 1_790_000_000;
    for (const [type, fields] of cases) {
      const r = await rt.postWebhook(inboundMessage(rt.phone, { from, name: 'Types', type, fields, timestampS: ts++ }));
      expect(r.status).toBe(200);
    }
    await rt.idle();
    const types = (await messagesOf(`${from}@c.us`)).map((m) => m.message_type).reverse();
    expect(types).toEqual(cases.map((c) => c[2]));
    const doc = (await messagesOf(`${from}@c.us`)).find((m) => m.message_type === 'document');
    expect(doc?.media).toMatchObject({ media_id: 'm4', filename: 'a.pdf' });
  });

  it('replies keep context; reactions add and remove on the target message', async () => {
    const from = '15550002222';
    const target = newWamid();
    await rt.postWebhook(inboundText(rt.phone, from, 'first', { id: target, timestampS: 1_790_000_100 }));
    await rt.idle();
    await rt.postWebhook(inboundMessage(rt.phone, { from, type: 'text', fields: { text: { body: 'reply' } }, context: { from: rt.phone.display_phone_number, id: target }, timestampS: 1_790_000_101 }));
    await rt.postWebhook(inboundMessage(rt.phone, { from, type: 'reaction', fields: { reaction: { message_id: target, emoji: '❤️' } }, timestampS: 1_790_000_102 }));
    await rt.idle();
    let msgs = await messagesOf(`${from}@c.us`);
    expect(msgs.find((m) => m.body === 'reply')?.quoted_message?.message_id).toBe(target);
    expect(msgs.find((m) => m.message_id === target)?.reactions).toEqual({ [from]: { reaction: '❤️', timestamp: 1_790_000_102_000 } });
    await rt.postWebhook(inboundMessage(rt.phone, { from, type: 'reaction', fields: { reaction: { message_id: target } }, timestampS: 1_790_000_103 }));
    await rt.idle();
    msgs = await messagesOf(`${from}@c.us`);
    expect(msgs.find((m) => m.message_id === target)?.reactions).toEqual({});
    // a reaction does not count as unread
    expect((await chatOf(`${from}@c.us`)).message_unread_count).toBe(2);
  });

  it('a 2 MB body with 400 messages (over one queue record) is stored completely', async () => {
    const from = '15550001234';
    const messages = Array.from({ length: 400 }, (_, i) => ({ from, id: newWamid(), timestamp: String(1_790_000_500 + i), type: 'text', text: { body: `bulk ${i} ${'y'.repeat(5000)}` } }));
    const body = JSON.stringify(envelope(rt.phone, { contacts: [{ wa_id: from, profile: { name: 'Bulk' } }], messages }));
    expect(Buffer.byteLength(body)).toBeGreaterThan(2_000_000);
    expect((await rt.postWebhook(body)).status).toBe(200);
    await rt.idle();
    const chat = await chatOf(`${from}@c.us`);
    expect(chat.message_unread_count).toBe(400);
    expect(chat.latest_message?.body).toMatch(/^bulk 399 /);
  }, 150_000); // 400 messages of 5 KB through every consumer: 45-60 s under load on 2 cores

  it('one body over 80 chats, labelled or not, is stored whole in shared transactions, with exact counters', async () => {
    const api = async <T>(method: string, path: string, json?: unknown) => (await rt.api(token, `/api/orgs/${rt.orgId}${path}`, { method, ...(json ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) } : {}) })).json() as Promise<T>;
    const counts = async () => (await api<{ counts: Record<string, { total: number; unread: number; labels: Record<string, number> }> }>('GET', '/chats/counts')).counts.open!;
    const from = (i: number) => String(15557700000 + i);
    const msg = (i: number, k: number) => ({ from: from(i), id: newWamid(), timestamp: String(1_790_100_000 + k), type: 'text', text: { body: `many ${i} ${k}` } });
    const contacts = Array.from({ length: 80 }, (_, i) => ({ wa_id: from(i), profile: { name: `Many ${i}` } }));
    // the chats exist first; 30 of them get two labels (more rows and counters per chat write)
    expect((await rt.postWebhook(JSON.stringify(envelope(rt.phone, { contacts, messages: contacts.map((_, i) => msg(i, 0)) })))).status).toBe(200);
    await rt.idle();
    const labels = await Promise.all(['Many A', 'Many B'].map(async (name) => (await api<{ label: { label_id: string } }>('POST', '/labels', { name, color: '#1f7a8c' })).label.label_id));
    await api('POST', '/chats/labels', { chat_ids: Array.from({ length: 30 }, (_, i) => `${from(i)}@c.us`), add: labels });
    const before = await counts();
    // one body: two more messages to each of the 80 chats (160 messages, far over one transaction)
    const messages = contacts.flatMap((_, i) => [msg(i, 1), msg(i, 2)]);
    expect((await rt.postWebhook(JSON.stringify(envelope(rt.phone, { contacts, messages })))).status).toBe(200);
    await rt.idle();
    const chats = await Promise.all(contacts.map((_, i) => chatOf(`${from(i)}@c.us`)));
    expect(chats.map((c) => c.message_unread_count)).toEqual(contacts.map(() => 3));
    expect(chats.every((c, i) => c.latest_message?.body === `many ${i} 2`)).toBe(true);
    const after = await counts();
    expect(after.total).toBe(before.total);
    expect(after.unread).toBe(before.unread);
    expect(labels.map((l) => after.labels[l])).toEqual([30, 30]);
    expect((await messagesOf(`${from(0)}@c.us`)).map((m) => m.body)).toEqual(['many 0 2', 'many 0 1', 'many 0 0']);
  }, 120_000);

  it('one chat’s batch of long messages (events past one outbox row) is stored whole, in order', async () => {
    const from = '15557800001';
    // 40 messages of 4,096 two-byte characters, ~660 KB of events
    const { long, txs } = await postLongBatch(from, 40, 4_090);
    // the outbox rows of each transaction: more than one once its events pass ~300 KB, none over DynamoDB's 400 KB item limit
    const outboxRows = txs.map((items) => items.filter((t) => t.Put?.Item.__edb_e__ === OUTBOX_ENTITY_NAME).map((t) => Buffer.byteLength(JSON.stringify(t.Put!.Item))));
    expect(Math.max(...outboxRows.map((r) => r.length))).toBeGreaterThan(1);
    expect(Math.max(...outboxRows.flat())).toBeLessThan(400_000);
    const chat = await chatOf(`${from}@c.us`);
    expect(chat.message_unread_count).toBe(40);
    expect(chat.latest_message?.body).toBe(long(39));
    const bodies = (await messagesOf(`${from}@c.us`)).map((m) => m.body);
    expect(bodies).toEqual(Array.from({ length: 40 }, (_, k) => long(39 - k)));
  }, 120_000);

  it('one chat’s batch of very long messages (WhatsApp Web allows 65,536 characters) is cut into transactions that fit', async () => {
    const from = '15557800002';
    // 30 messages of 60,000 two-byte characters (~120 KB each): one transaction of them would be ~7 MB
    const { long, txs } = await postLongBatch(from, 30, 60_000);
    // DynamoDB's limits per TransactWriteItems (DynamoDB Local enforces neither): 100 items, 4 MB
    expect(Math.max(...txs.map((items) => items.length))).toBeLessThanOrEqual(100);
    expect(Math.max(...txs.map((items) => Buffer.byteLength(JSON.stringify(items))))).toBeLessThan(4_000_000);
    const chat = await chatOf(`${from}@c.us`);
    expect(chat.message_unread_count).toBe(30);
    expect(chat.latest_message?.body).toBe(long(29));
    // every message stored once (a page of these is cut by DynamoDB's 1 MB per Query, so count from the table)
    const stored = (await db().entities.message.query.byChat({ org_id: rt.orgId, chat_id: `${from}@c.us` }).go({ pages: 'all' })).data;
    expect(stored.map((m) => m.body).sort()).toEqual(Array.from({ length: 30 }, (_, k) => long(k)).sort());
    const page = (await messagesOf(`${from}@c.us`)).map((m) => m.body);
    expect(page).toEqual(Array.from({ length: page.length }, (_, k) => long(29 - k)));
  }, 180_000);

  it('acknowledges an unknown phone_number_id and stores nothing', async () => {
    const r = await rt.postWebhook(inboundText({ phone_number_id: '999', display_phone_number: '1999' }, '15550003333', 'lost?'));
    expect(r.status).toBe(200);
    await rt.idle();
    expect((await db().entities.chat.get({ org_id: rt.orgId, chat_id: '15550003333@c.us' }).go()).data).toBeNull();
  });

  it('keeps signed but unusable bodies with a reason (200, never 500)', async () => {
    expect((await rt.postWebhook('{not json')).status).toBe(200);
    const bad = inboundMessage(rt.phone, { from: '1', type: 'text', fields: {} });
    expect((await rt.postWebhook(bad)).status).toBe(200);
    await rt.idle();
    const unknown = (await db().entities.webhookRejection.query.byOrg({ org_id: 'unknown' }).go()).data;
    expect(unknown.some((r) => r.reason === 'body is not valid JSON' && r.raw_body === '{not json')).toBe(true);
    const ours = (await db().entities.webhookRejection.query.byOrg({ org_id: rt.orgId }).go()).data;
    expect(ours.some((r) => r.reason.includes('text'))).toBe(true);
  });
});

describe('statuses', () => {
  async function sendReply(chatId: string, body: string) {
    const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(chatId)}/messages`, { method: 'POST', json: { body } });
    expect(r.status).toBe(201);
    return ((await r.json()) as { message: Message }).message;
  }

  it('sent, read, then a late delivered: ack ends at read with delivery_info', async () => {
    const from = '15550004444';
    await rt.postWebhook(inboundText(rt.phone, from, 'hi'));
    await rt.idle();
    const sent = await sendReply(`${from}@c.us`, 'hello!');
    await rt.idle();
    const wamid = (await messagesOf(`${from}@c.us`)).find((m) => m.unique_id === sent.unique_id)!.message_id!;
    for (const status of ['sent', 'read', 'delivered'] as const) await rt.postWebhook(statusUpdate(rt.phone, { id: wamid, status, recipient: from }));
    await rt.postWebhook(statusUpdate(rt.phone, { id: wamid, status: 'read', recipient: from })); // duplicate
    await rt.idle();
    const m = (await messagesOf(`${from}@c.us`)).find((x) => x.unique_id === sent.unique_id)!;
    expect(m.ack).toBe(3);
    expect(m.delivery_info).toEqual({ read_count: 1, delivered_count: 1, pending: 0 });
    expect((await chatOf(`${from}@c.us`)).latest_message?.ack).toBe(3);
  });

  it('a status that arrives before its message is applied when the message appears', async () => {
    const from = '15550005555';
    await rt.postWebhook(inboundText(rt.phone, from, 'hi'));
    await rt.idle();
    const early = newWamid();
    await rt.postWebhook(statusUpdate(rt.phone, { id: early, status: 'delivered', recipient: from }));
    await rt.idle();
    rt.graph.nextWamids(early);
    const sent = await sendReply(`${from}@c.us`, 'racing');
    await rt.idle();
    const m = (await messagesOf(`${from}@c.us`)).find((x) => x.unique_id === sent.unique_id)!;
    expect(m.message_id).toBe(early);
    expect(m.ack).toBe(2);
  });

  it('a failed status keeps Meta’s code and title and explains it', async () => {
    const from = '15550006666';
    await rt.postWebhook(inboundText(rt.phone, from, 'hi'));
    await rt.idle();
    const sent = await sendReply(`${from}@c.us`, 'will fail');
    await rt.idle();
    const wamid = (await messagesOf(`${from}@c.us`)).find((m) => m.unique_id === sent.unique_id)!.message_id!;
    await rt.postWebhook(statusUpdate(rt.phone, { id: wamid, status: 'failed', recipient: from, errors: [{ code: 131026, title: 'Message undeliverable', error_data: { details: 'Unable to deliver' } }] }));
    await rt.idle();
    const m = (await messagesOf(`${from}@c.us`)).find((x) => x.unique_id === sent.unique_id)!;
    expect(m.ack).toBe(-1);
    expect(m.delivery_error).toMatchObject({ code: 131026, title: 'Message undeliverable', details: 'Unable to deliver' });
    expect(m.delivery_error?.reason).toMatch(/could not be delivered/);
  });
});

describe('outbound through the Graph API', () => {
  it('a 131047 from Meta leaves the message failed with a reason a person understands', async () => {
    const from = '15550007777';
    await rt.postWebhook(inboundText(rt.phone, from, 'hi'));
    await rt.idle();
    rt.graph.failNext(131047);
    const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(`${from}@c.us`)}/messages`, { method: 'POST', json: { body: 'late reply' } });
    const sent = ((await r.json()) as { message: Message }).message;
    await rt.idle();
    const m = (await messagesOf(`${from}@c.us`)).find((x) => x.unique_id === sent.unique_id)!;
    expect(m.ack).toBe(-1);
    expect(m.delivery_error).toMatchObject({ code: 131047 });
    expect(m.delivery_error?.reason).toMatch(/24 hours/);
  });

  it('a 130429 rate limit is retried and then sent', async () => {
    const from = '15550008888';
    await rt.postWebhook(inboundText(rt.phone, from, 'hi'));
    await rt.idle();
    rt.graph.failNext(130429);
    const before = rt.graph.sent.length;
    const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(`${from}@c.us`)}/messages`, { method: 'POST', json: { body: 'retry me' } });
    const sent = ((await r.json()) as { message: Message }).message;
    await rt.idle();
    expect(rt.graph.sent.length - before).toBe(2);
    const m = (await messagesOf(`${from}@c.us`)).find((x) => x.unique_id === sent.unique_id)!;
    expect(m.ack).toBe(0);
    expect(m.message_id).toMatch(/^wamid\./);
  });

  it('refuses to send free-form outside the 24-hour window without calling Meta', async () => {
    const from = '15550009999';
    await rt.postWebhook(inboundText(rt.phone, from, 'old', { timestampS: Math.floor(Date.now() / 1000) - 25 * 3600 }));
    await rt.idle();
    const before = rt.graph.sent.length;
    const r = await rt.api(token, `/api/orgs/${rt.orgId}/chats/${encodeURIComponent(`${from}@c.us`)}/messages`, { method: 'POST', json: { body: 'too late' } });
    const sent = ((await r.json()) as { message: Message }).message;
    await rt.idle();
    expect(rt.graph.sent.length).toBe(before);
    const m = (await messagesOf(`${from}@c.us`)).find((x) => x.unique_id === sent.unique_id)!;
    expect(m.ack).toBe(-1);
    expect(m.delivery_error?.reason).toMatch(/template/);
  });
});
