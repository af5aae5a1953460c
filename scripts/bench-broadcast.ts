import { parseArgs } from 'node:util';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startDynamoDb } from './local/dynamodb.ts';
import { freePort } from './local/ports.ts';
import { REPO_ROOT } from './local/handlers.ts';
import { GraphStandIn } from './local/graph-standin.ts';

/**
 * The broadcast bench (issue 16 part B), `npm run bench:broadcast`:
 *
 *   npm run bench:broadcast -- [--recipients 10000] [--pace-ms 50] [--kill-at 0.5] [--short] [--profile]
 *   npm run bench:broadcast -- --memory 100000 [--memory-seconds 60]
 *
 * Send mode: the real local runtime runs in a child process (scripts/local/runtime-child.ts) over a
 * DynamoDB Local the bench owns, with WHATSAPP_GRAPH_URL pointed at a Graph API stand-in in THIS
 * process, so its request log survives the runtime's death. `--recipients` chats (each with a
 * customer message an hour ago: the 24-hour window is open) are written to the table, one broadcast
 * to all of them is created over HTTP at `--pace-ms` (50 ms = 20/s), and when `--kill-at` of them
 * have reached the stand-in the runtime's process group gets SIGKILL and is started again on the
 * same data. It reports the achieved pace (Graph requests per second between the first and the last
 * request of each uninterrupted segment) against the configured one (pass: within 5%), and, from the
 * stand-in's requests per recipient number, duplicates and missing recipients (pass: zero each).
 *
 * Memory mode: 1,000 chats and a broadcast of `--memory` recipient rows over them (written straight
 * to the table: creating 100,000 through the API is the create path's cost, not the engine's), then
 * the engine sends at 10 ms for `--memory-seconds`; the runtime child's RSS is sampled before and
 * while it runs. The engine pages recipients (50 a Query), so its memory should not grow with them.
 * `--profile`: the runtime child counts its DynamoDB calls by consumer queue and command (bench-lib
 * profileDynamoDb; 'http' = API requests), printed at the end with the calls per recipient sent
 * (of the last segment when the run was killed). Exits 1 when a check fails. Figures on this machine are noisy (2 cores shared with other work).
 */
const { values } = parseArgs({
  options: {
    recipients: { type: 'string' },
    'pace-ms': { type: 'string' },
    'kill-at': { type: 'string' },
    short: { type: 'boolean', default: false },
    memory: { type: 'string' },
    'memory-seconds': { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});
const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
const log = (s: string) => process.stdout.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

type Ready = { url: string; orgId: string; clientId: string; demo: { adminEmail: string; password: string } };

/** The runtime child, in its own process group so SIGKILL takes its helpers too. */
class RuntimeChild {
  proc!: ChildProcess;
  private lines: Array<(o: Record<string, unknown>) => void> = [];
  constructor(private args: { dataDir: string; port: number; dynamoEndpoint: string }, private env: Record<string, string>) {}
  async start(): Promise<Ready> {
    this.proc = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/local/runtime-child.ts'), JSON.stringify(this.args)], {
      cwd: REPO_ROOT,
      // BENCH_LOG_LEVEL=error: the runtime's log lines (JSON with a `level`) are printed to stderr
      env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'silent', ...this.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stderr = '';
    this.proc.stderr!.on('data', (d) => {
      stderr = (stderr + String(d)).slice(-4000);
      // BENCH_LOG_LEVEL: the runtime's error lines go to stderr too (Powertools writes errors there)
      if (process.env.BENCH_LOG_LEVEL) process.stderr.write(d as Buffer);
    });
    createInterface({ input: this.proc.stdout! }).on('line', (l) => {
      if (!l.startsWith('{')) return;
      const o = JSON.parse(l) as Record<string, unknown>;
      if ('level' in o) process.stderr.write(`${l}\n`);
      else this.lines.shift()?.(o);
    });
    const exited = new Promise<never>((_, reject) => this.proc.once('exit', (c, s) => reject(new Error(`runtime child exited (${c ?? s}): ${stderr}`))));
    exited.catch(() => undefined);
    return (await Promise.race([new Promise((r) => this.lines.push(r)), exited])) as Ready;
  }
  async idle(): Promise<void> {
    const answer = new Promise((r) => this.lines.push(r));
    this.proc.stdin!.write('idle\n');
    await answer;
  }
  async kill9(): Promise<void> {
    const gone = new Promise<void>((r) => this.proc.once('exit', () => r()));
    process.kill(-this.proc.pid!, 'SIGKILL');
    await gone;
  }
  /** the child's DynamoDB profile table (BENCH_PROFILE_DDB=1), '' without it */
  async profile(): Promise<string> {
    const answer = new Promise<Record<string, unknown>>((r) => this.lines.push(r));
    this.proc.stdin!.write('profile\n');
    return String((await answer).profile ?? '');
  }
  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const gone = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.stdin!.write('stop\n');
    const t = setTimeout(() => process.kill(-this.proc.pid!, 'SIGKILL'), 15_000);
    await gone;
    clearTimeout(t);
  }
  /** resident memory of the runtime process, MB (/proc) */
  async rssMb(): Promise<number> {
    const status = await readFile(`/proc/${this.proc.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  }
}

const chatOf = (n: number) => `1777${String(n).padStart(7, '0')}@c.us`;

/** Write chats as the write path does, each with a customer message an hour ago (window open). */
async function seedChats(orgId: string, n: number): Promise<string[]> {
  const { db } = await import('../shared/db/service.ts');
  const { commitTransaction } = await import('../shared/db/transaction.ts');
  const { chatWriteItems, counterItems } = await import('../shared/chat/chat-write.ts');
  const { mergeDeltas } = await import('../shared/chat/chat-state.rules.ts');
  const phone = (await db().entities.phone.query.byOrg({ org_id: orgId }).go()).data[0]!;
  const ids: string[] = [];
  const at = Date.now() - 3600_000;
  const batches: number[] = [];
  for (let s = 0; s < n; s += 20) batches.push(s);
  const work = async () => {
    for (let s = batches.shift(); s !== undefined; s = batches.shift()) {
      const start = s;
      const ok = await commitTransaction((e) => {
        const items = [];
        let deltas: Record<string, number> = {};
        for (let i = start; i < Math.min(n, start + 20); i++) {
          const row = {
            org_id: orgId,
            chat_id: chatOf(i),
            chat_name: `Bench customer ${i}`,
            chat_type: 'user',
            org_phone: phone.org_phone,
            phone_id: phone.phone_id,
            chat_org_phones: [phone.org_phone],
            latest_message_timestamp: at,
            latest_message: { unique_id: `b${i}`, body: 'Hello', message_type: 'text', from_me: false, ack: 0, timestamp: at },
            last_customer_message_at: { [phone.org_phone]: at },
            message_unread_count: 0,
            unread_count: {},
          } as unknown as import('../shared/chat/chat-write.ts').ChatRow;
          const w = chatWriteItems(e, null, row, Date.now());
          items.push(...w.items);
          deltas = mergeDeltas(deltas, w.deltas);
        }
        return [...items, ...counterItems(e, orgId, deltas)];
      });
      if (!ok) throw new Error('seeding chats failed');
    }
  };
  await Promise.all([work(), work(), work(), work()]);
  for (let i = 0; i < n; i++) ids.push(chatOf(i));
  return ids;
}

/** Pace of a run of request times (ms, sorted): requests per second between the first and the last. */
const paceOf = (ts: number[]) => (ts.length < 2 ? 0 : ((ts.length - 1) * 1000) / (ts[ts.length - 1]! - ts[0]!));

async function main(): Promise<void> {
  const memoryMode = values.memory !== undefined;
  const recipients = memoryMode ? num(values.memory, 100_000) : values.short ? 200 : num(values.recipients, 10_000);
  const paceMs = memoryMode ? 10 : num(values['pace-ms'], 50);
  const killAt = num(values['kill-at'], 0.5);
  log(`bench:broadcast ${memoryMode ? `memory, ${recipients} recipients` : `${recipients} recipients at ${paceMs} ms (${(1000 / paceMs).toFixed(1)}/s), kill -9 at ${killAt * 100}%`} — ${cpus().length} cores, load ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);

  // the Graph API stand-in lives here, so its request log outlives the runtime
  const graph = new GraphStandIn({ keep: Infinity });
  const graphPort = await freePort();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void graph.handle(req, res, (req.url ?? '/').split('?')[0]!, Buffer.concat(chunks)));
  });
  await new Promise<void>((r) => server.listen(graphPort, '127.0.0.1', r));

  const dir = await mkdtemp(join(tmpdir(), 'chorus-bench-broadcast-'));
  const ddb = await startDynamoDb(join(dir, 'dynamodb'), 'chorus', await freePort());
  const port = await freePort();
  const child = new RuntimeChild({ dataDir: join(dir, 'runtime'), port, dynamoEndpoint: ddb.endpoint }, { WHATSAPP_GRAPH_URL: `http://127.0.0.1:${graphPort}`, WHATSAPP_GRAPH_SEND_LOOKUP: '1', ...(values.profile ? { BENCH_PROFILE_DDB: '1' } : {}) });
  let ok = true;
  try {
    const ready = await child.start();
    Object.assign(process.env, { TABLE_NAME: 'chorus', AWS_ENDPOINT_URL_DYNAMODB: ddb.endpoint, AWS_REGION: process.env.AWS_REGION || 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
    (await import('../shared/config.ts')).resetConfig();
    (await import('../shared/db/client.ts')).resetDocumentClient();
    (await import('../shared/db/service.ts')).resetDb();
    const { db } = await import('../shared/db/service.ts');
    const base = `http://127.0.0.1:${port}`;
    const signIn = async (): Promise<string> => {
      const auth = await fetch(`${base}/cognito/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
        body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: ready.clientId, AuthParameters: { USERNAME: ready.demo.adminEmail, PASSWORD: ready.demo.password } }),
      });
      return ((await auth.json()) as { AuthenticationResult: { IdToken: string } }).AuthenticationResult.IdToken;
    };
    const api = async <T>(method: string, path: string, json?: unknown): Promise<T> => {
      const r = await fetch(`${base}/api/orgs/${ready.orgId}${path}`, { method, headers: { authorization: `Bearer ${await signIn()}`, 'content-type': 'application/json' }, ...(json ? { body: JSON.stringify(json) } : {}) });
      const body = (await r.json()) as T;
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(body).slice(0, 500)}`);
      return body;
    };
    // enough licences for the credits (3,000 each, spec §9)
    await db().entities.organization.patch({ org_id: ready.orgId }).set({ licences: Math.ceil((recipients + 10) / 3000) } as never).go();

    const t0 = Date.now();
    const chats = await seedChats(ready.orgId, memoryMode ? 1000 : recipients);
    log(`seeded ${chats.length} chats in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    if (memoryMode) {
      const { recipientId } = await import('../shared/broadcast/broadcast.rules.ts');
      const phone = (await db().entities.phone.query.byOrg({ org_id: ready.orgId }).go()).data[0]!;
      const broadcast_id = `bc_${(await import('ulid')).ulid()}`;
      const now = Date.now();
      const expires_at = Math.floor(now / 1000) + 86400;
      const t1 = Date.now();
      for (let s = 0; s < recipients; s += 1000) {
        const rows = Array.from({ length: Math.min(1000, recipients - s) }, (_, k) => ({
          org_id: ready.orgId, broadcast_id, rid: recipientId(s + k), state: 'pending' as const, chat_id: chats[(s + k) % chats.length]!, phone_id: phone.phone_id, connection_type: 'wa_cloud' as const, name: `Bench customer ${(s + k) % chats.length}`, expires_at,
        }));
        await db().entities.broadcastRecipient.put(rows).go({ concurrency: 4 });
      }
      log(`wrote ${recipients} recipient rows in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
      await db().entities.broadcast.create({ org_id: ready.orgId, broadcast_id, name: 'Memory', status: 'paused', content: { body: 'Hello {{name}}' }, audience_kind: 'chats', pace_ms: 10, quiet_hours: null, opt_out_keyword: 'STOP', created_by: ready.demo.adminEmail.toLowerCase(), created_at: now, started_at: now, step: 0, total: recipients, expires_at }).go();
      await child.idle();
      const before = await child.rssMb();
      await api('POST', `/broadcasts/${broadcast_id}/actions`, { action: 'resume' });
      const seconds = num(values['memory-seconds'], 60);
      const samples: number[] = [];
      const end = Date.now() + seconds * 1000;
      while (Date.now() < end) {
        await new Promise((r) => setTimeout(r, 2000));
        samples.push(await child.rssMb());
      }
      const sent = graph.sent.filter((r) => r.wamid).length;
      await api('POST', `/broadcasts/${broadcast_id}/actions`, { action: 'pause' });
      log(`runtime RSS with a ${recipients}-recipient broadcast: ${before.toFixed(0)} MB before it runs; while it runs (${seconds} s, ${sent} sent): max ${Math.max(...samples).toFixed(0)} MB, last ${samples[samples.length - 1]!.toFixed(0)} MB`);
      return;
    }

    const created = await api<{ broadcast: { broadcast_id: string } }>('POST', '/broadcasts', { name: 'Bench', audience: { kind: 'chats', chat_ids: chats }, content: { body: 'Hello {{name}}, this is the bench.' }, options: { pace_ms: paceMs } });
    const id = created.broadcast.broadcast_id;
    log(`broadcast ${id} created`);
    const sends = () => graph.sent.filter((r) => r.wamid);
    const killN = Math.floor(recipients * killAt);
    let killedAt = 0;
    let restartedAt = 0;
    if (killAt > 0 && killAt < 1) {
      while (sends().length < killN) await new Promise((r) => setTimeout(r, 20));
      await child.kill9();
      killedAt = Date.now();
      log(`kill -9 after ${sends().length} Graph requests`);
      await child.start();
      restartedAt = Date.now();
      log(`runtime restarted in ${((restartedAt - killedAt) / 1000).toFixed(1)} s`);
    }
    let lastLog = Date.now();
    for (;;) {
      const b = await api<{ broadcast: { status: string; stats: { sent: number; failed: number; pending: number } } }>('GET', `/broadcasts/${id}`);
      if (b.broadcast.status === 'completed') break;
      if (Date.now() - lastLog > 30_000) {
        lastLog = Date.now();
        log(`… ${sends().length} Graph requests, ${JSON.stringify(b.broadcast.stats)}`);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    await child.idle();
    const all = sends();
    if (values.profile) {
      const table = await child.profile();
      const segment = killedAt ? all.filter((r) => r.at >= killedAt).length : all.length;
      const calls = [...table.matchAll(/: (\d+) calls/g)].reduce((n, m) => n + Number(m[1]), 0);
      log(`DynamoDB calls of the runtime${killedAt ? ' since the restart' : ''}: ${calls} for ${segment} sends (${(calls / Math.max(1, segment)).toFixed(1)} per recipient)\n${table}`);
    }
    const per = new Map<string, number>();
    for (const r of all) {
      const to = (r.body as { to: string }).to;
      per.set(to, (per.get(to) ?? 0) + 1);
    }
    const duplicates = [...per.values()].filter((n) => n > 1).length;
    const missing = chats.filter((c) => !per.has(c.split('@')[0]!)).length;
    const times = all.map((r) => r.at).sort((a, b) => a - b);
    const seg1 = killedAt ? times.filter((t) => t < killedAt) : times;
    const seg2 = killedAt ? times.filter((t) => t >= killedAt) : [];
    const target = 1000 / paceMs;
    const within = (p: number) => Math.abs(p - target) / target <= 0.05;
    const p1 = paceOf(seg1);
    log(`pace before the kill: ${p1.toFixed(2)}/s over ${seg1.length} requests (target ${target.toFixed(2)}/s, ${(((p1 - target) / target) * 100).toFixed(1)}%)`);
    if (seg2.length) {
      const p2 = paceOf(seg2);
      log(`pace after the restart: ${p2.toFixed(2)}/s over ${seg2.length} requests (${(((p2 - target) / target) * 100).toFixed(1)}%); first request ${((seg2[0]! - restartedAt) / 1000).toFixed(1)} s after the restart (stale claims wait 15 s)`);
      if (!within(p2)) ok = false;
    }
    log(`total: ${all.length} Graph requests for ${recipients} recipients; duplicates ${duplicates}, missing ${missing}; wall ${((times[times.length - 1]! - times[0]!) / 1000).toFixed(1)} s`);
    if (!within(p1)) ok = false;
    if (duplicates || missing) ok = false;
    log(ok ? 'PASS' : 'FAIL');
  } finally {
    await child.stop().catch(() => undefined);
    await ddb.stop();
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
  if (!ok) process.exitCode = 1;
}

await main();
