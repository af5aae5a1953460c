import { parseArgs } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime } from './local/runtime.ts';
import { freePort } from './local/ports.ts';
import { inboundText, newWamid } from '../shared/whatsapp/cloud/payloads.ts';
import { adminSocket, pct, postSignedWebhook, profileDynamoDb } from './bench-lib.ts';

/**
 * Hot-chat benchmark (issue 23 item 1): a burst to ONE chat as Meta delivers it (one message per
 * webhook, a few webhooks in flight), plus traffic to other chats, through the real local runtime
 * (gateway -> whatsapp-inbound queue -> ingest -> outbox/bus -> realtime-fanout -> WebSocket).
 *
 *   npm run bench:hot-chat -- [--messages 10000] [--inflight 8] [--others 2000] [--rate 80] [--in-memory]
 *
 * Reports:
 *  - burst: webhook answers (all 200? slowest), ingest time and messages/s, failed store attempts
 *    (queue deliveries that failed and were retried: contention on the chat row shows here), and
 *    order: for each hot-chat message that reached the socket, how many messages the customer sent
 *    before it had not arrived yet (the worst case, and how many arrivals overtook an earlier one);
 *  - paced: webhook-to-socket p50/p95 at `--rate` messages/s to one chat (Meta's default per-number
 *    throughput is 80/s), and at 100 messages/s spread over 100 chats. Target p95 <= 150 ms. Each
 *    phase starts from a quiet runtime (the burst's and the first phase's background work done), and
 *    the time the background consumers took to catch up after each phase is printed.
 * Timestamps are the customer's send order (Meta's are whole seconds, so many share one).
 */
const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '10000' },
    inflight: { type: 'string', default: '8' },
    others: { type: 'string', default: '2000' },
    rate: { type: 'string', default: '80' },
    seconds: { type: 'string', default: '10' },
    'in-memory': { type: 'boolean', default: false },
    /** print DynamoDB calls by command: count, mean and total ms (where the time goes) */
    profile: { type: 'boolean', default: false },
  },
});
const N = Number(values.messages);
const INFLIGHT = Number(values.inflight);
const OTHERS = Number(values.others);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const HOT = '15551230000';

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'chorus-hot-'));
  const port = await freePort();
  const rt = await startRuntime({ dataDir: dir, port, inMemoryTable: values['in-memory'], logLevel: 'silent' });
  const phone = { phone_number_id: rt.env.WHATSAPP_PHONE_NUMBER_ID, display_phone_number: rt.env.WHATSAPP_DISPLAY_PHONE_NUMBER };
  const inbound = rt.queues.get('whatsapp-inbound')!;
  const printProfile = values.profile ? await profileDynamoDb({ byQueue: true }) : undefined;
  try {
    const ws = await adminSocket(rt, port);

    // socket arrivals by wamid (first arrival only; duplicates counted)
    const arrived = new Map<string, number>();
    let duplicates = 0;
    const waiters = new Map<string, () => void>();
    const onArrival: Array<(id: string) => void> = [];
    ws.on('message', (d) => {
      const ev = JSON.parse(String(d)) as { type: string; properties: { message?: { message_id?: string } } };
      const id = ev.type === 'message.received' ? ev.properties.message?.message_id : undefined;
      if (!id) return;
      if (arrived.has(id)) {
        duplicates++;
        return;
      }
      arrived.set(id, performance.now());
      for (const f of onArrival) f(id);
      waiters.get(id)?.();
    });

    const sentAt = new Map<string, number>();
    let slowestAnswer = 0;
    let refused = 0;
    const post = async (from: string, text: string): Promise<{ wamid: string; arrival: Promise<void> }> => {
      const wamid = newWamid();
      const raw = JSON.stringify(inboundText(phone, from, text, { name: `Customer ${from}`, id: wamid, timestampS: Math.floor(Date.now() / 1000) }));
      const arrival = new Promise<void>((r) => waiters.set(wamid, r));
      const t0 = performance.now();
      sentAt.set(wamid, t0);
      const status = await postSignedWebhook(rt, port, raw);
      slowestAnswer = Math.max(slowestAnswer, performance.now() - t0);
      if (status !== 200) refused++;
      return { wamid, arrival };
    };

    // ---- 1. the burst: N to one chat, OTHERS to other chats, INFLIGHT webhooks at a time -------
    const hotOrder = new Map<string, number>(); // wamid -> send index in the hot chat
    const hotArrivedIdx: number[] = [];
    onArrival.push((id) => {
      const k = hotOrder.get(id);
      if (k !== undefined) hotArrivedIdx.push(k);
    });
    const plan: Array<{ hot: boolean; i: number }> = [];
    const step = OTHERS ? Math.max(1, Math.floor(N / OTHERS)) : Infinity;
    for (let i = 0, o = 0; i < N; i++) {
      plan.push({ hot: true, i });
      if (o < OTHERS && i % step === step - 1) plan.push({ hot: false, i: o++ });
    }
    const failedBefore = inbound.failedDeliveries;
    const arrivals: Array<Promise<void>> = [];
    let next = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: INFLIGHT }, async () => {
        while (next < plan.length) {
          const p = plan[next++]!;
          // the hot chat's messages leave in order (Meta keeps a sender's order); send index = order
          const r = p.hot ? await post(HOT, `hot ${p.i}`) : await post(String(15552000000 + p.i), `other ${p.i}`);
          if (p.hot) hotOrder.set(r.wamid, p.i);
          arrivals.push(r.arrival);
        }
      }),
    );
    const answeredSecs = (performance.now() - t) / 1000;
    await Promise.race([Promise.all(arrivals), new Promise((r) => setTimeout(r, 600_000).unref())]);
    const ingestSecs = (performance.now() - t) / 1000;
    await rt.idle();
    const failedAttempts = inbound.failedDeliveries - failedBefore;
    // order: when hot message k arrived, how many of 0..k-1 had not arrived yet
    const seen = new Uint8Array(N);
    let seenCount = 0;
    let worstMissing = 0;
    let overtaking = 0;
    for (const k of hotArrivedIdx) {
      // messages with a lower index not yet seen = k - (seen with index < k); count cheaply with a running max check
      seen[k] = 1;
      seenCount++;
      let missing = 0;
      if (k + 1 > seenCount) {
        for (let j = 0; j < k; j++) if (!seen[j]) missing++;
      }
      if (missing) overtaking++;
      worstMissing = Math.max(worstMissing, missing);
    }
    const hotArrived = hotArrivedIdx.length;
    const total = plan.length;

    // ---- 2. paced: RATE/s to one chat, then 100/s over 100 chats -------------------------------
    const paced = async (rate: number, chats: number, label: string) => {
      const count = rate * SECONDS;
      const ids: string[] = [];
      const arr: Array<Promise<void>> = [];
      const start = performance.now();
      await Promise.all(
        Array.from({ length: count }, async (_, k) => {
          const due = start + (k * 1000) / rate;
          await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
          const r = await post(chats === 1 ? '15553330000' : String(15554000000 + (k % chats)), `${label} ${k}`);
          ids.push(r.wamid);
          arr.push(r.arrival);
        }),
      );
      await Promise.race([Promise.all(arr), new Promise((r) => setTimeout(r, 60_000).unref())]);
      const lat = ids.map((id) => (arrived.get(id) ?? NaN) - sentAt.get(id)!).filter((x) => !Number.isNaN(x));
      // each phase starts from a quiet runtime: the background consumers (search, analytics…) finish
      // what the phase gave them first, and how long that took is reported (their lag)
      const quiet = performance.now();
      await rt.idle();
      return { count, got: lat.length, p50: pct(lat, 50), p95: pct(lat, 95), catchUpS: (performance.now() - quiet) / 1000 };
    };
    if (printProfile) printProfile(true);
    const one = await paced(RATE, 1, 'paced-one');
    const oneProfile = printProfile?.(true);
    const many = await paced(100, 100, 'paced-many');

    ws.close();
    const f = (x: number) => x.toFixed(1);
    console.log(`machine: ${(await import('node:os')).cpus().length} cores, node ${process.version}, table: DynamoDB Local ${values['in-memory'] ? '(in memory)' : '(on disk)'}`);
    console.log(`burst: ${N} messages to one chat + ${OTHERS} to other chats, ${INFLIGHT} webhooks in flight`);
    console.log(`  webhooks: ${total - refused}/${total} answered 200 in ${f(answeredSecs)} s, slowest answer ${f(slowestAnswer)} ms`);
    console.log(`  ingest: ${arrived.size >= total ? 'all' : `${arrived.size}/${total}`} on the socket after ${f(ingestSecs)} s (${f(total / ingestSecs)} messages/s); duplicates on the socket ${duplicates}`);
    console.log(`  failed store attempts (queue deliveries retried): ${failedAttempts}`);
    console.log(`  order in the hot chat: ${hotArrived}/${N} arrived; ${overtaking} arrived before an earlier one; worst: ${worstMissing} earlier messages still missing`);
    console.log(`paced, one chat at ${RATE}/s for ${SECONDS} s: ${one.got}/${one.count} arrived, webhook-to-socket p50 ${f(one.p50)} ms, p95 ${f(one.p95)} ms (target <= 150); background caught up ${f(one.catchUpS)} s after the last arrival`);
    if (oneProfile) console.log(oneProfile);
    console.log(`paced, 100 chats at 100/s for ${SECONDS} s: ${many.got}/${many.count} arrived, p50 ${f(many.p50)} ms, p95 ${f(many.p95)} ms (target <= 150); background caught up ${f(many.catchUpS)} s after the last arrival`);
    if (printProfile) console.log(printProfile());
  } finally {
    await rt.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
