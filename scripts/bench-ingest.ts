import { parseArgs } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { startRuntime } from './local/runtime.ts';
import { freePort } from './local/ports.ts';
import { inboundText, newWamid } from '../shared/whatsapp/cloud/payloads.ts';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../shared/config.ts';
import { adminSocket, pct, postSignedWebhook, profileDynamoDb } from './bench-lib.ts';

/**
 * Ingest benchmark (issue: walking skeleton, Performance).
 *   npm run bench:ingest -- --messages 2000 --concurrency 16 [--rate 100] [--chats 200] [--in-memory] [--profile]
 * Starts the local runtime (DynamoDB Local on disk unless --in-memory), connects one member over
 * the WebSocket, then:
 *  1. raw put rate: N PutItem calls of message-sized items straight to the local table at the
 *     same concurrency (the ceiling for anything that writes to it);
 *  2. throughput: N signed webhooks posted at the given concurrency; messages/s and webhook-POST ->
 *     socket-arrival latency p50/p95;
 *  3. paced: the same at a fixed rate (default 100 messages/s) for the latency target.
 * Prints one `ratio` line: ingest messages/s / raw puts/s.
 */
const { values } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '16' },
    rate: { type: 'string', default: '100' },
    chats: { type: 'string', default: '100' },
    'in-memory': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
  },
});
const N = Number(values.messages);
const C = Number(values.concurrency);
const RATE = Number(values.rate);
const CHATS = Number(values.chats);

async function pool<T>(items: T[], concurrency: number, fn: (x: T) => Promise<void>) {
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'chorus-bench-'));
  const port = await freePort();
  const rt = await startRuntime({ dataDir: dir, port, inMemoryTable: values['in-memory'], logLevel: 'warn' });
  const phone = { phone_number_id: rt.env.WHATSAPP_PHONE_NUMBER_ID, display_phone_number: rt.env.WHATSAPP_DISPLAY_PHONE_NUMBER };
  try {
    // sign in and connect one member socket
    const ws = await adminSocket(rt, port);
    const arrived = new Map<string, number>();
    const waiters = new Map<string, () => void>();
    ws.on('message', (d) => {
      const ev = JSON.parse(String(d)) as { type: string; properties: { message?: { message_id?: string } } };
      const id = ev.type === 'message.received' ? ev.properties.message?.message_id : undefined;
      if (id && !arrived.has(id)) {
        arrived.set(id, performance.now());
        waiters.get(id)?.();
      }
    });

    // 1. raw put rate (after a warm-up, so DynamoDB Local's JVM is not measured cold)
    // a client of its own: the runtime's priority gate (scripts/local/db-gate.ts) does not limit the ceiling
    const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: config().AWS_REGION, endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB }));
    const table = config().TABLE_NAME;
    const rawPut = (i: number, prefix: string) =>
      doc.send(new PutCommand({ TableName: table, Item: { pk: `${prefix}#${i % CHATS}`, sk: `m#${String(i).padStart(9, '0')}`, gsi1pk: prefix, gsi1sk: `${Date.now()}#${i}`, body: 'x'.repeat(60), from_me: false, ack: 0, timestamp: Date.now() } }));
    await pool(Array.from({ length: 500 }, (_, i) => i), C, (i) => rawPut(i, 'warm').then(() => undefined));
    const items = Array.from({ length: N }, (_, i) => i);
    let t = performance.now();
    await pool(items, C, (i) => rawPut(i, 'bench').then(() => undefined));
    const rawRate = N / ((performance.now() - t) / 1000);

    /** Post one signed webhook; resolves once the webhook answered 200, with a promise of its arrival on the socket. */
    const post = async (i: number, sentAt: Map<string, number>): Promise<{ arrival: Promise<void> }> => {
      const wamid = newWamid();
      const raw = JSON.stringify(inboundText(phone, String(15550000000 + (i % CHATS)), `bench message ${i}`, { name: `Customer ${i % CHATS}`, id: wamid }));
      const arrival = new Promise<void>((r) => waiters.set(wamid, r));
      sentAt.set(wamid, performance.now());
      const status = await postSignedWebhook(rt, port, raw);
      if (status !== 200) throw new Error(`webhook answered ${status}`);
      return { arrival };
    };
    const latencies = (sentAt: Map<string, number>) => [...sentAt].map(([id, s]) => (arrived.get(id) ?? NaN) - s).filter((x) => !Number.isNaN(x));

    // --profile: DynamoDB calls by consumer queue ('http' = the webhook request) from here on
    const printProfile = values.profile ? await profileDynamoDb({ byQueue: true }) : undefined;
    // 2. throughput at concurrency C
    const sent1 = new Map<string, number>();
    const arrivals: Array<Promise<void>> = [];
    t = performance.now();
    await pool(items, C, async (i) => {
      arrivals.push((await post(i, sent1)).arrival);
    });
    await Promise.race([Promise.all(arrivals), new Promise((r) => setTimeout(r, 120_000).unref())]);
    const ingestSecs = (performance.now() - t) / 1000;
    const l1 = latencies(sent1);
    const ingestRate = l1.length / ingestSecs;

    // 3. paced at RATE messages/s
    const paced = Math.min(N, RATE * 10);
    const sent2 = new Map<string, number>();
    const arrivals2: Array<Promise<void>> = [];
    const start = performance.now();
    await Promise.all(
      Array.from({ length: paced }, async (_, k) => {
        await new Promise((r) => setTimeout(r, (k * 1000) / RATE));
        arrivals2.push((await post(N + k, sent2)).arrival);
      }),
    );
    await Promise.race([Promise.all(arrivals2), new Promise((r) => setTimeout(r, 60_000).unref())]);
    const pacedSecs = (performance.now() - start) / 1000;
    const l2 = latencies(sent2);

    ws.close();
    const f = (x: number) => x.toFixed(1);
    console.log(`machine: ${(await import('node:os')).cpus().length} cores, node ${process.version}, table: DynamoDB Local ${values['in-memory'] ? '(in memory)' : '(on disk)'}`);
    console.log(`raw put rate:        ${f(rawRate)} puts/s (${N} puts, concurrency ${C})`);
    console.log(`ingest (unpaced):    ${f(ingestRate)} messages/s, ${l1.length}/${N} arrived on the socket, latency p50 ${f(pct(l1, 50))} ms, p95 ${f(pct(l1, 95))} ms (concurrency ${C}, ${CHATS} chats)`);
    console.log(`ingest (paced):      ${f(l2.length / pacedSecs)} messages/s offered ${RATE}/s, ${l2.length}/${paced} arrived, latency p50 ${f(pct(l2, 50))} ms, p95 ${f(pct(l2, 95))} ms`);
    if (printProfile) console.log(printProfile());
    console.log(`ratio ingest/raw put: ${(ingestRate / rawRate).toFixed(2)} (target >= 0.5); paced p95 target < 150 ms: ${pct(l2, 95) < 150 ? 'met' : 'NOT met'}`);
  } finally {
    await rt.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
