import { ulid } from 'ulid';
import { pct, rng } from './bench-lib.ts';
import type { Runtime } from './local/runtime.ts';

/**
 * The read path of `npm run bench:search` (issue 14 item 7): seeds `listChats` chats (a third
 * assigned to the admin, a fifth unread) and one chat with 10,000 messages into the runtime's
 * table, then measures through HTTP, at 1 and 10 clients, the chat list's first page (All; Mine +
 * Unread) and that chat's first page of messages, and prints the ratio against the peer's p95
 * at 10 clients (whaticket-community: 377 ms for a ticket list, 660 ms for a 10,000-message ticket).
 * Each read is measured as `npm start` runs it (the runtime is its table's only writer, so its read
 * caches keep pages until its own writes forget them: shared/db/read-cache.ts) and again with those
 * caches off, as every read is in AWS (many writers), where the ratio is printed for information.
 */
export async function readPath(rt: Runtime, token: string, listChats: number, runs: number, load: (url: string, token: string, clients: number, total: number) => Promise<number[]>): Promise<void> {
  const { db } = await import('../shared/db/service.ts');
  const { setSingleWriter, singleWriterCaches } = await import('../shared/db/read-cache.ts');
  const { withIndexKeys } = await import('../shared/chat/chat-write.ts');
  const r = rng(11);
  const now = Date.now();
  const orgId = rt.orgId;
  const org_phone = rt.env.WHATSAPP_DISPLAY_PHONE_NUMBER;
  const phone_id = rt.env.WHATSAPP_PHONE_NUMBER_ID;
  const chats: unknown[] = [];
  for (let i = 0; i < listChats; i++) {
    const ts = now - (listChats - i) * 60_000;
    const unread = r() < 0.2 ? 1 + Math.floor(r() * 5) : 0;
    chats.push(
      withIndexKeys(
        {
          org_id: orgId,
          chat_id: `1777${String(i).padStart(7, '0')}@c.us`,
          chat_type: 'user',
          chat_name: `Read path ${i}`,
          org_phone,
          phone_id,
          chat_org_phones: [org_phone],
          latest_message: { unique_id: ulid(ts), body: `message ${i}`, message_type: 'text', from_me: false, ack: 3, timestamp: ts },
          latest_message_timestamp: ts,
          unread_count: { [org_phone]: unread },
          message_unread_count: unread,
          assigned_to: r() < 0.33 ? rt.demo.adminEmail : undefined,
          version: 1,
        } as never,
        now,
      ),
    );
  }
  const t0 = performance.now();
  for (let i = 0; i < chats.length; i += 1000) await db().entities.chat.put(chats.slice(i, i + 1000) as never).go({ concurrency: 8 } as never);
  const hot = `17779999999@c.us`;
  await db()
    .entities.chat.put(withIndexKeys({ org_id: orgId, chat_id: hot, chat_type: 'user', chat_name: 'Hot chat', org_phone, phone_id, chat_org_phones: [org_phone], latest_message_timestamp: now, version: 1 } as never, now) as never)
    .go();
  const msgs = Array.from({ length: 10_000 }, (_, i) => {
    const ts = now - (10_000 - i) * 1000;
    return { org_id: orgId, chat_id: hot, unique_id: ulid(ts), timestamp: ts, org_phone, phone_id, sender_phone: '17779999999', author: 'Hot', body: `message number ${i} of the hot chat`, from_me: i % 2 === 0, ack: 3, message_type: 'text', version: 1 };
  });
  for (let i = 0; i < msgs.length; i += 1000) await db().entities.message.put(msgs.slice(i, i + 1000)).go({ concurrency: 8 } as never);
  console.log(`\n== read path (HTTP): seeded ${listChats} chats and a 10,000-message chat in ${((performance.now() - t0) / 1000).toFixed(1)} s ==`);
  const base = `${rt.url}/api/orgs/${orgId}`;
  const cases = [
    { name: 'chat list, All, first page', url: `${base}/chats?limit=50`, peer: 377 },
    { name: 'chat list, Mine + Unread', url: `${base}/chats?limit=50&assignee=me&unread=true`, peer: 377 },
    { name: '10,000-message chat, 1st page', url: `${base}/chats/${encodeURIComponent(hot)}/messages?limit=50`, peer: 660 },
  ];
  const cachesOn = singleWriterCaches();
  console.log(`${'read'.padEnd(30)} ${'1 client p50/p95'.padStart(18)} ${'10 clients p50/p95'.padStart(20)}  peer p95 @10 / ours`);
  for (const mode of ['local', 'uncached'] as const) {
    if (mode === 'uncached') {
      setSingleWriter(false);
      console.log('-- the same with the read caches off (as every read is in AWS; for information: there DynamoDB does not share these 2 cores):');
    }
    for (const c of cases) {
      await load(c.url, token, 1, 3);
      const one = await load(c.url, token, 1, runs);
      const ten = await load(c.url, token, 10, runs * 3);
      const ratio = c.peer / pct(ten, 95);
      const verdict = mode === 'local' ? `target 10x: ${ratio >= 10 ? 'met' : 'missed'}` : 'caches off';
      console.log(`${c.name.padEnd(30)} ${`${pct(one, 50).toFixed(0)}/${pct(one, 95).toFixed(0)} ms`.padStart(18)} ${`${pct(ten, 50).toFixed(0)}/${pct(ten, 95).toFixed(0)} ms`.padStart(20)}  ${ratio.toFixed(1)}x (${c.peer} ms peer; ${verdict})`);
    }
  }
  setSingleWriter(cachesOn);
}
