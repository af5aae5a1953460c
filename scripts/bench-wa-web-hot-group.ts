import { parseArgs } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime } from './local/runtime.ts';
import { freePort } from './local/ports.ts';
import { adminSocket, pct, profileDynamoDb } from './bench-lib.ts';
import { db } from '../shared/db/service.ts';
import { createWaWebSession, getWaWebSession } from '../shared/whatsapp/web/sessions.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * WhatsApp Web hot group (issue 23 item 5): a linked number in a group of `--participants` (200)
 * people sending `--rate` (20) messages/s for `--seconds` (30), as Baileys `messages.upsert`
 * events from the local WhatsApp Web stand-in, through the real path (session worker →
 * wa-web-inbound FIFO queue → ingest → outbox/bus → realtime-fanout → WebSocket). Then a burst of
 * `--burst` (2000) messages injected at once. Before both, not measured, a warm-up: one message
 * from each participant (the group and its people known, every consumer loaded), then idle.
 *
 *   npm run bench:wa-web-hot-group -- [--participants 200] [--rate 20] [--seconds 30] [--burst 2000]
 *
 * Reports, for each phase: stored and pushed counts, socket duplicates, failed store attempts
 * (wa-web-inbound deliveries retried), order (messages that reached the socket before an earlier
 * one of the group), and event-to-socket p50/p95 (ms, from the injection). Target p95 <= 150 ms.
 */
const { values } = parseArgs({
  options: {
    participants: { type: 'string', default: '200' },
    rate: { type: 'string', default: '20' },
    seconds: { type: 'string', default: '30' },
    burst: { type: 'string', default: '2000' },
    /** print the worker's pending records and the queues' depths every second (where the time goes) */
    trace: { type: 'boolean', default: false },
    /** print DynamoDB calls by command */
    profile: { type: 'boolean', default: false },
  },
});
const PARTICIPANTS = Number(values.participants);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const BURST = Number(values.burst);
const PHONE = 'waweb_bench_1';
const OWN = '15550009999';
const GROUP = '120363000000000123@g.us';
const jid = (i: number) => `4477009${String(i).padStart(5, '0')}@s.whatsapp.net`;

const dir = await mkdtemp(join(tmpdir(), 'chorus-wa-hot-'));
const port = await freePort();
const rt = await startRuntime({ dataDir: dir, port, inMemoryTable: true, logLevel: 'silent' });
try {
  await db().entities.phone.create({ org_id: rt.orgId, phone_id: PHONE, org_phone: OWN, connection_type: 'wa_web' }).go();
  await createWaWebSession({ org_id: rt.orgId, phone_id: PHONE, org_phone: OWN });
  await rt.waWebWorker.tick();
  for (let i = 0; i < 200 && !(rt.waWeb.isOpen(PHONE) && (await getWaWebSession(PHONE))?.state === 'open'); i++) await new Promise((r) => setTimeout(r, 100));
  rt.waWeb.setGroup(GROUP, { subject: 'Hot group', participants: [{ id: `${OWN}@s.whatsapp.net`, admin: 'admin' }, ...Array.from({ length: PARTICIPANTS }, (_, i) => ({ id: jid(i), admin: null }))] });

  const printProfile = values.profile ? await profileDynamoDb({ byQueue: true }) : undefined;
  const ws = await adminSocket(rt, port);
  const arrived = new Map<string, number>();
  let duplicates = 0;
  const order: number[] = [];
  const seq = new Map<string, number>();
  ws.on('message', (d) => {
    const ev = JSON.parse(String(d)) as { type: string; properties: { message?: { message_id?: string } } };
    const id = ev.type === 'message.received' ? ev.properties.message?.message_id : undefined;
    if (!id) return;
    if (arrived.has(id)) return void duplicates++;
    arrived.set(id, performance.now());
    const k = seq.get(id);
    if (k !== undefined) order.push(k);
  });
  const sentAt = new Map<string, number>();
  let n = 0;
  const baseS = Math.floor(Date.now() / 1000);
  const message = (i: number) => {
    const id = `3EB0HOT${String(i).padStart(8, '0')}`;
    seq.set(id, i);
    return { key: { remoteJid: GROUP, fromMe: false, id, participant: jid(i % PARTICIPANTS) }, message: { conversation: `message ${i}` }, messageTimestamp: baseS + Math.floor(i / 10), pushName: `P${i % PARTICIPANTS}` };
  };
  const inbound = rt.queues.get('wa-web-inbound')!;
  const fanout = rt.queues.get('realtime-fanout')!;
  const trace = values.trace
    ? setInterval(() => console.log(`  t: worker pending ${rt.waWebWorker.pendingInbound()}, wa-web-inbound ${inbound.depth}, realtime-fanout ${fanout.depth}, on the socket ${arrived.size}/${n}`), 1000)
    : undefined;
  const report = async (label: string, ids: string[], t0: number, failedBefore: number) => {
    const deadline = Date.now() + 300_000;
    while (ids.some((id) => !arrived.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const secs = (performance.now() - t0) / 1000;
    await rt.idle();
    const lat = ids.map((id) => arrived.get(id)! - sentAt.get(id)!).filter((x) => !Number.isNaN(x));
    const mine = order.filter((k) => ids.includes(`3EB0HOT${String(k).padStart(8, '0')}`));
    let overtaking = 0;
    let max = -1;
    for (const k of mine) {
      if (k < max) overtaking++;
      max = Math.max(max, k);
    }
    console.log(`${label}: ${lat.length}/${ids.length} on the socket after ${secs.toFixed(1)} s (${(ids.length / secs).toFixed(1)} messages/s); p50 ${pct(lat, 50).toFixed(1)} ms, p95 ${pct(lat, 95).toFixed(1)} ms (target <= 150); failed store attempts ${inbound.failedDeliveries - failedBefore}; arrived before an earlier one ${overtaking}; duplicates ${duplicates}`);
  };

  // ---- warm-up (not measured): the group and its participants known, every consumer loaded, as in a
  // runtime that has been up; one message from each participant, then idle ----
  {
    const warm = Array.from({ length: PARTICIPANTS }, (_, i) => ({ key: { remoteJid: GROUP, fromMe: false, id: `3EB0WARM${String(i).padStart(7, '0')}`, participant: jid(i) }, message: { conversation: `hello ${i}` }, messageTimestamp: baseS - 60, pushName: `P${i}` }));
    for (let i = 0; i < warm.length; i += 20) rt.waWeb.inject(PHONE, { event: 'messages.upsert', data: { type: 'notify', messages: warm.slice(i, i + 20) } } as never);
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline && (await db().entities.message.query.byChat({ org_id: rt.orgId, chat_id: GROUP }).go({ pages: 'all', attributes: ['message_id'] })).data.length < PARTICIPANTS) await new Promise((r) => setTimeout(r, 200));
    await rt.idle();
  }

  // ---- paced: RATE/s for SECONDS ----
  {
    const ids: string[] = [];
    const failedBefore = inbound.failedDeliveries;
    const t0 = performance.now();
    for (let k = 0; k < RATE * SECONDS; k++) {
      const due = t0 + (k * 1000) / RATE;
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
      const m = message(n++);
      ids.push(m.key.id);
      sentAt.set(m.key.id, performance.now());
      rt.waWeb.inject(PHONE, { event: 'messages.upsert', data: { type: 'notify', messages: [m] } } as never);
    }
    await report(`paced, one group of ${PARTICIPANTS} at ${RATE}/s for ${SECONDS} s`, ids, t0, failedBefore);
  }
  // ---- burst: BURST messages injected at once, one event each (none with --burst 0) ----
  if (BURST > 0) {
    const ids: string[] = [];
    const failedBefore = inbound.failedDeliveries;
    const t0 = performance.now();
    for (let k = 0; k < BURST; k++) {
      const m = message(n++);
      ids.push(m.key.id);
      sentAt.set(m.key.id, performance.now());
      rt.waWeb.inject(PHONE, { event: 'messages.upsert', data: { type: 'notify', messages: [m] } } as never);
    }
    await report(`burst, ${BURST} messages to the group at once`, ids, t0, failedBefore);
  }
  const stored = (await db().entities.message.query.byChat({ org_id: rt.orgId, chat_id: GROUP }).go({ pages: 'all' })).data.length;
  const chat = (await db().entities.chat.get({ org_id: rt.orgId, chat_id: GROUP }).go()).data as { message_unread_count?: number } | null;
  console.log(`stored ${stored}/${n + PARTICIPANTS} (${PARTICIPANTS} of them the warm-up's); unread counter ${chat?.message_unread_count} (exact: ${chat?.message_unread_count === n + PARTICIPANTS})`);
  clearInterval(trace);
  if (printProfile) console.log(printProfile());
  console.log(`machine: ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}, node ${process.version}`);
  ws.close();
} finally {
  await rt.stop();
  await rm(dir, { recursive: true, force: true });
}
