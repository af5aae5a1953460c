import { parseArgs } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { startRuntime } from './local/runtime.ts';
import { freePort } from './local/ports.ts';
import { pct, rng } from './bench-lib.ts';
import { startReceiver } from '../tests/factories/webhook-receiver.ts';

/**
 * Outbound webhooks benchmark (issue 20):
 *   npm run bench:webhooks -- [--events 10000] [--fail 0.3] [--backoff-scale 0.0002]
 * Starts the local runtime (DynamoDB Local in memory, the durable local queues and scheduler),
 * adds 3 endpoints on a local receiver (loopback allowed by CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1, set
 * here), one of which answers 500 to a seeded 30% of requests, and publishes N
 * `message.status_updated` events on the bus (each becomes one delivery per endpoint through the
 * `webhook-dispatch` consumer and the `webhook-deliveries` queue). Retries use the real schedule
 * COMPRESSED by CHORUS_WEBHOOK_BACKOFF_SCALE (default 0.0002: 5 s -> 1 ms, 5 min -> 60 ms, 10 h ->
 * 7.2 s), so ~27 h of backoff fits in seconds; everything else is the production path.
 * Checks at the receiver: every (event, endpoint) got exactly one 2xx-answered request (zero lost),
 * no webhook-id was answered 2xx twice (zero duplicated); a delivery that failed all 8 attempts
 * (30%^8: rare) must be in the log as failed, never silently missing. Reports the delivery latency
 * (event published -> 2xx at the receiver) p50/p95/max, per healthy and flaky endpoint.
 */
const { values } = parseArgs({ options: { events: { type: 'string', default: '10000' }, fail: { type: 'string', default: '0.3' }, 'backoff-scale': { type: 'string', default: '0.0002' } } });
const N = Number(values.events);
const FAIL = Number(values.fail);

async function main() {
  process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK = '1';
  process.env.CHORUS_WEBHOOK_BACKOFF_SCALE = values['backoff-scale'];
  const dir = await mkdtemp(join(tmpdir(), 'chorus-bench-webhooks-'));
  const rt = await startRuntime({ dataDir: dir, port: await freePort(), inMemoryTable: true, demo: { adminEmail: 'admin@bench.chorus', memberEmail: 'member@bench.chorus' }, logLevel: 'error' });
  const r = rng(7);
  const rx = await startReceiver((req) => (req.path === '/flaky' && r() < FAIL ? 500 : 200));
  try {
    const { createEndpoint } = await import('../shared/webhooks/webhooks.ts');
    const { publishAll } = await import('../events/publish.ts');
    const { db } = await import('../shared/db/service.ts');
    const admin = { email: rt.demo.adminEmail, user_id: 'bench', org_id: rt.orgId, role: 'admin' as const };
    const paths = ['/a', '/b', '/flaky'];
    const eps = await Promise.all(paths.map((p) => createEndpoint(admin, { url: `${rx.url}${p}`, events: ['message.status_updated'] })));
    const pathOf = new Map(eps.map((e, i) => [e.endpoint_id, paths[i]!]));

    const t0 = performance.now();
    const chat_id = '447700900123@c.us';
    for (let i = 0; i < N; i += 10) {
      const batch = Array.from({ length: Math.min(10, N - i) }, (_, k) => ({
        name: 'message.status_updated' as const,
        properties: { org_id: rt.orgId, chat_id, message: { chat_id, unique_id: ulid(), timestamp: Date.now(), from_me: true, ack: 2, message_type: 'text', body: `bench ${i + k}` } },
        actor: 'system',
        id: `bench:${i + k}`,
      }));
      await publishAll(batch);
    }
    const published = performance.now() - t0;
    console.log(`published ${N} events in ${(published / 1000).toFixed(1)} s; waiting for deliveries…`);

    // done when every expected delivery is answered 2xx or exhausted (checked on the log)
    const expected = N * eps.length;
    let lastReport = 0;
    let lastCount = -1;
    let stillSince = performance.now();
    for (;;) {
      const okCount = countOk();
      if (okCount >= expected) break;
      if (okCount !== lastCount) {
        lastCount = okCount;
        stillSince = performance.now();
      }
      if (performance.now() - lastReport > 10_000) {
        lastReport = performance.now();
        console.log(`  ${okCount}/${expected} delivered (${rx.received.length} requests)…`);
      }
      // no progress for 60 s (longer than the whole compressed backoff, ~20 s): the rest must be exhausted in the log
      if (performance.now() - stillSince > 60_000 && rx.received.length > 0) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    const total = performance.now() - t0;
    await rt.idle();

    // --- checks ---
    const okById = new Map<string, number>();
    const latency: Record<string, number[]> = { '/a': [], '/b': [], '/flaky': [] };
    const byEvent = new Map<string, Set<string>>();
    for (const req of rx.received) {
      if (statusOf(req) >= 300) continue;
      const id = req.headers['webhook-id']!;
      okById.set(id, (okById.get(id) ?? 0) + 1);
      const body = JSON.parse(req.body) as { timestamp: string; data: { message: { body: string } } };
      latency[req.path]!.push(req.at - Date.parse(body.timestamp));
      const ev = body.data.message.body;
      if (!byEvent.has(ev)) byEvent.set(ev, new Set());
      byEvent.get(ev)!.add(req.path);
    }
    const duplicates = [...okById.values()].filter((n) => n > 1).length;
    const failedRows = await exhausted();
    let missing = 0;
    for (let i = 0; i < N; i++) for (const p of paths) if (!byEvent.get(`bench ${i}`)?.has(p)) missing++;
    const lost = missing - failedRows.length;
    const failedAttempts = rx.received.filter((x) => statusOf(x) >= 300).length;
    const all = Object.values(latency).flat();
    const line = (name: string, xs: number[]) => `${name.padEnd(8)} n=${String(xs.length).padStart(6)}  p50 ${pct(xs, 50)} ms  p95 ${pct(xs, 95)} ms  max ${Math.max(...xs)} ms`;
    console.log('\nbench:webhooks');
    console.log(`events ${N} × endpoints ${eps.length} = ${expected} deliveries; flaky endpoint fails ${FAIL * 100}% of requests (seeded); backoff scale ${values['backoff-scale']}`);
    console.log(`requests at the receiver: ${rx.received.length} (${failedAttempts} answered 500 and retried)`);
    console.log(`delivered once: ${okById.size}; duplicated by webhook-id: ${duplicates}; exhausted (in the log as failed, replayable): ${failedRows.length}; lost: ${lost}`);
    console.log(`total ${(total / 1000).toFixed(1)} s (${Math.round((expected / total) * 1000)} deliveries/s)`);
    console.log('delivery latency (event published -> 2xx at the receiver):');
    console.log(line('all', all));
    console.log(line('/a', latency['/a']!));
    console.log(line('/b', latency['/b']!));
    console.log(line('/flaky', latency['/flaky']!));
    if (duplicates || lost) {
      console.error('FAIL: deliveries lost or duplicated');
      process.exitCode = 1;
    }

    function statusOf(req: { status: number }): number {
      return req.status;
    }
    function countOk(): number {
      let n = 0;
      for (const x of rx.received) if (statusOf(x) < 300) n++;
      return n;
    }
    async function exhausted() {
      const rows = [];
      for (const e of eps) {
        if (pathOf.get(e.endpoint_id) !== '/flaky') continue;
        let cursor: string | null = null;
        do {
          const page: { data: Array<{ status: string }>; cursor: string | null } = await db().entities.webhookDelivery.query.byEndpoint({ org_id: rt.orgId, endpoint_id: e.endpoint_id }).where((a, op) => op.eq(a.status, 'failed')).go({ cursor, limit: 1000 });
          rows.push(...page.data);
          cursor = page.cursor;
        } while (cursor);
      }
      return rows;
    }
  } finally {
    await rx.close();
    await rt.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
