import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startDynamoDb } from './local/dynamodb.ts';
import { freePort } from './local/ports.ts';
import { REPO_ROOT } from './local/handlers.ts';
import { rng } from './bench-lib.ts';
import { inboundMessage, inboundText, statusUpdate, type PhoneMeta } from '../shared/whatsapp/cloud/payloads.ts';
import { signBody } from '../shared/whatsapp/cloud/signature.ts';

/**
 * The ingest fault harness (issue 23 item 2), behind `npm run bench:ingest-faults` and, in a short
 * form, tests/integration/ingest-faults.test.ts.
 *
 * It runs the real local runtime in a child process (scripts/local/runtime-child.ts) over a
 * DynamoDB Local that the harness owns, and delivers `webhooks` signed Cloud API webhooks as Meta
 * would, with `inflight` in flight, each retried until it is answered 200:
 * - unique customer messages over `chats` chats (one hot chat takes 30% of them);
 * - `dupShare` of all webhooks are exact re-deliveries of another webhook (same body and wamid);
 * - reactions (one per target) and the statuses of `outbound` messages we sent (sent, delivered,
 *   read), everything shuffled: reactions before their target, read before sent;
 * - a `kill -9` of the runtime's process group when `killAt` of the webhooks are answered, then a
 *   restart on the same data; a restart of DynamoDB Local at `ddbRestartAt`.
 *
 * Then it counts, from the table and from one admin WebSocket (reconnected after the kill):
 * messages lost (answered 200 but not stored), duplicates, chats whose unread counter is not the
 * number of customer messages, reactions missing from their target, outbound messages whose ack is
 * not final (read) or went backwards on the socket, socket events received twice by id, and
 * message.received events the socket never got (split into those stored before the socket's last
 * reconnect, which the app refetches on reconnect, and those stored after it, which must be 0).
 * Events pushed twice are counted on the wire: the fan-out is at-least-once (a consumer killed
 * after pushing is delivered again) and the web client drops a repeated event id
 * (web/src/lib/socket.ts RecentIds). Times in ms.
 */
export interface FaultOptions {
  webhooks: number;
  chats: number;
  dupShare: number;
  reactionShare: number;
  outbound: number;
  inflight: number;
  /** share of webhooks answered before the kill -9 (0 = no kill) */
  killAt: number;
  /** share of webhooks answered before DynamoDB Local restarts (0 = no restart) */
  ddbRestartAt: number;
  seed: number;
  log?: (line: string) => void;
}

export const DEFAULT_FAULT_OPTIONS: FaultOptions = { webhooks: 10_000, chats: 200, dupShare: 0.3, reactionShare: 0.05, outbound: 40, inflight: 8, killAt: 0.4, ddbRestartAt: 0.7, seed: 23 };

export interface FaultReport {
  webhooks: number;
  unique_messages: number;
  duplicates_sent: number;
  reactions_sent: number;
  statuses_sent: number;
  answered_200: number;
  /** POSTs that failed (connection refused while the runtime was down, 5xx) and were sent again */
  retried_posts: number;
  killed: boolean;
  ddb_restarted: boolean;
  seconds: number;
  lost: number;
  duplicates_stored: number;
  unread_wrong: number;
  reactions_missing: number;
  acks_not_final: number;
  acks_backwards: number;
  socket_events: number;
  socket_duplicate_ids: number;
  socket_missing_while_down: number;
  socket_missing: number;
  dead_letters: number;
  /** rejections nobody awaited that the runtime child logged and survived (scripts/local/process-guard.ts) */
  stray_rejections: number;
  /** dead letters per queue */
  dead_letters_by_queue: Record<string, number>;
}

type Ready = { url: string; orgId: string; clientId: string; demo: { adminEmail: string; password: string }; appSecret: string; phone: PhoneMeta };

/** The runtime child: spawned in its own process group so `kill -9` takes its helpers (cognito-local) too. */
class RuntimeChild {
  proc!: ChildProcess;
  ready!: Ready;
  /** set when the child exited without being killed by the harness */
  died: Error | undefined;
  private killing = false;
  private lines: Array<(o: Record<string, unknown>) => void> = [];
  constructor(private args: { dataDir: string; port: number; dynamoEndpoint: string }) {}

  async start(): Promise<Ready> {
    this.proc = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/local/runtime-child.ts'), JSON.stringify(this.args)], {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stderr = '';
    this.proc.stderr!.on('data', (d) => {
      stderr = (stderr + String(d)).slice(-4000);
      // the runtime survives a stray rejection (scripts/local/process-guard.ts): show where it came from
      if (String(d).includes('unhandled rejection')) process.stderr.write(d);
    });
    this.died = undefined;
    this.killing = false;
    // a runtime that dies on its own (not our kill -9) ends the run with its last words
    this.proc.once('exit', (code, sig) => {
      if (!this.killing) this.died = new Error(`the runtime child died (${code ?? sig}): ${stderr.slice(-1500)}`);
    });
    createInterface({ input: this.proc.stdout! }).on('line', (l) => {
      if (!l.startsWith('{')) return;
      const o = JSON.parse(l) as Record<string, unknown>;
      this.lines.shift()?.(o);
    });
    const exited = new Promise<never>((_, reject) => this.proc.once('exit', (code, sig) => reject(new Error(`runtime child exited (${code ?? sig}) before it was ready: ${stderr}`))));
    this.ready = (await Promise.race([this.next(), exited])) as unknown as Ready;
    exited.catch(() => undefined);
    return this.ready;
  }

  private next(): Promise<Record<string, unknown>> {
    return new Promise((r) => this.lines.push(r));
  }

  async command(cmd: 'idle'): Promise<Record<string, unknown>> {
    if (this.died) throw this.died;
    const answer = this.next();
    const died = new Promise<never>((_, reject) => this.proc.once('exit', () => setImmediate(() => reject(this.died ?? new Error('the runtime child exited')))));
    died.catch(() => undefined);
    this.proc.stdin!.write(`${cmd}\n`);
    return Promise.race([answer, died]);
  }

  /** kill -9 the runtime and everything it started */
  async kill9(): Promise<void> {
    this.killing = true;
    const gone = new Promise<void>((r) => this.proc.once('exit', () => r()));
    process.kill(-this.proc.pid!, 'SIGKILL');
    await gone;
  }

  async stop(): Promise<void> {
    this.killing = true;
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const gone = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.stdin!.write('stop\n');
    const t = setTimeout(() => process.kill(-this.proc.pid!, 'SIGKILL'), 15_000);
    await gone;
    clearTimeout(t);
  }
}

type Item = { kind: 'message' | 'duplicate' | 'reaction' | 'status'; raw: string };

export async function runIngestFaults(o: FaultOptions): Promise<FaultReport> {
  const log = o.log ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), 'chorus-faults-'));
  const ddbPort = await freePort();
  const tableName = 'chorus';
  let ddb = await startDynamoDb(join(dir, 'dynamodb'), tableName, ddbPort);
  const port = await freePort();
  const child = new RuntimeChild({ dataDir: join(dir, 'runtime'), port, dynamoEndpoint: ddb.endpoint });
  const { default: WebSocket } = await import('ws');
  const sockets: Array<import('ws').WebSocket> = [];
  try {
    let ready = await child.start();
    log(`runtime up on :${port}, DynamoDB Local on :${ddbPort}`);
    // the harness reads the same table afterwards (shared/db through the env the runtime uses)
    Object.assign(process.env, { TABLE_NAME: tableName, AWS_ENDPOINT_URL_DYNAMODB: ddb.endpoint, AWS_REGION: process.env.AWS_REGION || 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
    const { resetConfig } = await import('../shared/config.ts');
    const { resetDocumentClient } = await import('../shared/db/client.ts');
    const { resetDb, db } = await import('../shared/db/service.ts');
    resetConfig();
    resetDocumentClient();
    resetDb();

    const base = `http://127.0.0.1:${port}`;
    const signIn = async (): Promise<string> => {
      const auth = await fetch(`${base}/cognito/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
        body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: ready.clientId, AuthParameters: { USERNAME: ready.demo.adminEmail, PASSWORD: ready.demo.password } }),
      });
      return ((await auth.json()) as { AuthenticationResult: { IdToken: string } }).AuthenticationResult.IdToken;
    };
    let token = await signIn();

    // ---- the socket: every event by id; message.received by wamid; acks per outbound message ----
    const eventIds = new Map<string, number>();
    const receivedWamids = new Set<string>();
    const acks = new Map<string, number[]>();
    const downWindows: Array<[number, number]> = [];
    let downSince = 0;
    const connect = async (): Promise<void> => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}&org_id=${ready.orgId}`);
      ws.on('error', () => undefined);
      const opened = await new Promise<boolean>((r) => (ws.once('open', () => r(true)), ws.once('error', () => r(false))));
      if (!opened) {
        // the runtime is still coming up: try again shortly
        await new Promise((r) => setTimeout(r, 500));
        return connect();
      }
      sockets.push(ws);
      if (downSince) downWindows.push([downSince, Date.now()]);
      ws.on('message', (d) => {
        const ev = JSON.parse(String(d)) as { type: string; properties: { message?: { message_id?: string; unique_id?: string; from_me?: boolean; ack?: number } }; metadata?: { id?: string } };
        const id = ev.metadata?.id;
        if (id) eventIds.set(id, (eventIds.get(id) ?? 0) + 1);
        const m = ev.properties?.message;
        if (ev.type === 'message.received' && m?.message_id) receivedWamids.add(m.message_id);
        if (m?.from_me && m.unique_id && typeof m.ack === 'number') acks.set(m.unique_id, [...(acks.get(m.unique_id) ?? []), m.ack]);
      });
      ws.once('close', () => {
        downSince = Date.now();
      });
    };
    await connect();

    const post = async (raw: string): Promise<number> => {
      const res = await fetch(`${base}/webhooks/whatsapp`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(raw, ready.appSecret) }, body: raw });
      await res.arrayBuffer();
      return res.status;
    };
    const phone = ready.phone;
    const random = rng(o.seed);
    const nowS = Math.floor(Date.now() / 1000);
    const customer = (c: number) => String(15551000000 + c);
    const chatOf = (c: number) => `${customer(c)}@c.us`;

    // ---- warm-up: the outbound chats get one customer message each, then our reply -----------
    const outChats = Math.min(o.outbound, 20);
    for (let c = 0; c < outChats; c++) await post(JSON.stringify(inboundText(phone, customer(o.chats + c), `hello ${c}`, { name: `Out ${c}`, id: `wamid.fault.warm.${c}`, timestampS: nowS - 20_000 })));
    await child.command('idle');
    const outbound: Array<{ chat: string; recipient: string; unique_id: string }> = [];
    for (let k = 0; k < o.outbound; k++) {
      const c = o.chats + (k % outChats);
      const r = await fetch(`${base}/api/orgs/${ready.orgId}/chats/${encodeURIComponent(chatOf(c))}/messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ body: `reply ${k}` }) });
      const j = (await r.json()) as { message?: { unique_id: string } };
      if (!j.message?.unique_id) throw new Error(`send ${k} answered ${r.status}: ${JSON.stringify(j)}`);
      outbound.push({ chat: chatOf(c), recipient: customer(c), unique_id: j.message.unique_id });
    }
    await child.command('idle');
    const { getMessageItem } = await import('../shared/message/message.ts');
    const wamidOf = new Map<string, string>();
    for (const ob of outbound) {
      const m = (await getMessageItem(ready.orgId, ob.chat, ob.unique_id)) as { message_id?: string } | null;
      if (!m?.message_id) throw new Error(`outbound ${ob.unique_id} has no wamid after the send`);
      wamidOf.set(ob.unique_id, m.message_id);
    }

    // ---- the workload ---------------------------------------------------------------------------
    const dupCount = Math.round(o.webhooks * o.dupShare);
    const statusCount = o.outbound * 3;
    const reactionCount = Math.round(o.webhooks * o.reactionShare);
    const uniqueCount = Math.max(1, o.webhooks - dupCount - statusCount - reactionCount);
    const uniques: Array<{ chat: number; wamid: string; raw: string }> = [];
    for (let i = 0; i < uniqueCount; i++) {
      const chat = random() < 0.3 ? 0 : 1 + Math.floor(random() * (o.chats - 1));
      const wamid = `wamid.fault.${i}`;
      uniques.push({ chat, wamid, raw: JSON.stringify(inboundText(phone, customer(chat), `message ${i}`, { name: `Customer ${chat}`, id: wamid, timestampS: nowS - 15_000 + i })) });
    }
    const items: Item[] = uniques.map((u) => ({ kind: 'message', raw: u.raw }));
    const reactedTargets = new Map<string, { chat: number; emoji: string }>();
    const emojis = ['👍', '❤️', '😂', '🙏', '🎉'];
    for (let r = 0; r < reactionCount && r < uniques.length; r++) {
      const t = uniques[Math.floor(random() * uniques.length)]!;
      if (reactedTargets.has(t.wamid)) continue;
      const emoji = emojis[r % emojis.length]!;
      reactedTargets.set(t.wamid, { chat: t.chat, emoji });
      items.push({ kind: 'reaction', raw: JSON.stringify(inboundMessage(phone, { from: customer(t.chat), name: `Customer ${t.chat}`, id: `wamid.fault.r${r}`, timestampS: nowS - 1_000 + r, type: 'reaction', fields: { reaction: { message_id: t.wamid, emoji } } })) });
    }
    for (const ob of outbound) {
      const id = wamidOf.get(ob.unique_id)!;
      (['sent', 'delivered', 'read'] as const).forEach((status, k) => items.push({ kind: 'status', raw: JSON.stringify(statusUpdate(phone, { id, status, recipient: ob.recipient, timestampS: nowS - 500 + k })) }));
    }
    const originals = items.length;
    for (let d = 0; d < dupCount; d++) items.push({ kind: 'duplicate', raw: items[Math.floor(random() * originals)]!.raw });
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }

    // ---- delivery with faults ---------------------------------------------------------------------
    let answered = 0;
    let retried = 0;
    let killed = false;
    let ddbRestarted = false;
    let fault: Promise<void> | null = null;
    // one fault at a time: the DynamoDB restart waits until the runtime is back from its kill
    let faultDone = true;
    const killAt = o.killAt > 0 ? Math.floor(items.length * o.killAt) : Infinity;
    const ddbAt = o.ddbRestartAt > 0 ? Math.floor(items.length * o.ddbRestartAt) : Infinity;
    const t0 = performance.now();
    const onAnswered = () => {
      answered++;
      if (!killed && answered >= killAt) {
        killed = true;
        faultDone = false;
        fault = (async () => {
          log(`kill -9 of the runtime after ${answered} webhooks answered`);
          await child.kill9();
          // a restart can fail under load (cognito-local not up within its wait): try again, then give up
          for (let attempt = 1; ; attempt++) {
            try {
              ready = await child.start();
              break;
            } catch (e) {
              log(`restart ${attempt} failed: ${String((e as Error).message).slice(0, 300)}`);
              if (attempt >= 3) throw e;
            }
          }
          token = await signIn();
          await connect();
          log('runtime restarted, socket reconnected');
          faultDone = true;
        })();
      } else if (!ddbRestarted && answered >= ddbAt && faultDone) {
        ddbRestarted = true;
        faultDone = false;
        fault = (async () => {
          log(`DynamoDB Local restart after ${answered} webhooks answered`);
          await ddb.stop();
          ddb = await startDynamoDb(join(dir, 'dynamodb'), tableName, ddbPort);
          log('DynamoDB Local back');
          faultDone = true;
        })();
      }
    };
    let next = 0;
    // a failed fault (the runtime did not come back) ends the run instead of retrying forever
    let failure: unknown;
    const watch = () => {
      if (fault && !failure) fault.catch((e) => (failure ??= e));
      if (child.died && !failure) failure = child.died;
      if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
    };
    await Promise.all(
      Array.from({ length: o.inflight }, async () => {
        while (next < items.length) {
          const item = items[next++]!;
          // as Meta: a webhook not answered 200 is sent again, with backoff
          for (let attempt = 0; ; attempt++) {
            watch();
            const status = await post(item.raw).catch(() => 0);
            if (status === 200) break;
            retried++;
            await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)));
          }
          onAnswered();
        }
      }),
    );
    await fault;
    const idle = await child.command('idle');
    // a ping's pong comes after every frame sent before it: the socket has everything pushed so far
    const ws = sockets[sockets.length - 1]!;
    await new Promise<void>((r) => (ws.once('pong', () => r()), ws.ping()));
    const seconds = (performance.now() - t0) / 1000;
    log(`all ${items.length} webhooks answered 200 after ${seconds.toFixed(1)} s (${retried} posts retried); counting`);

    // ---- count from the table ----------------------------------------------------------------------
    const byChat = new Map<number, string[]>();
    for (const u of uniques) byChat.set(u.chat, [...(byChat.get(u.chat) ?? []), u.wamid]);
    let lost = 0;
    let duplicatesStored = 0;
    let unreadWrong = 0;
    let reactionsMissing = 0;
    let missingWhileDown = 0;
    let socketMissing = 0;
    const storedAt = new Map<string, number>();
    for (const [c, wamids] of byChat) {
      const rows = (await db().entities.message.query.byChat({ org_id: ready.orgId, chat_id: chatOf(c) }).go({ pages: 'all' })).data as Array<{ message_id?: string; message_type?: string; reactions?: Record<string, { reaction: string }>; created_at?: number }>;
      const counts = new Map<string, number>();
      for (const r of rows) if (r.message_id && r.message_type !== 'reaction') counts.set(r.message_id, (counts.get(r.message_id) ?? 0) + 1);
      for (const w of wamids) if (!counts.has(w)) lost++;
      for (const n of counts.values()) if (n > 1) duplicatesStored += n - 1;
      for (const r of rows) {
        const want = r.message_id ? reactedTargets.get(r.message_id) : undefined;
        if (want && r.reactions?.[customer(c)]?.reaction !== want.emoji) reactionsMissing++;
        if (r.message_id && r.created_at) storedAt.set(r.message_id, r.created_at);
      }
      const chat = (await db().entities.chat.get({ org_id: ready.orgId, chat_id: chatOf(c) }).go()).data as { message_unread_count?: number } | null;
      if ((chat?.message_unread_count ?? -1) !== wamids.length) unreadWrong++;
    }
    // a message stored before the socket's last reconnect may have been pushed to the connection
    // the kill closed (the app refetches on reconnect); one stored after it must have come through
    const lastReconnect = downWindows.length ? downWindows[downWindows.length - 1]![1] : 0;
    for (const u of uniques) {
      if (receivedWamids.has(u.wamid)) continue;
      const at = storedAt.get(u.wamid) ?? 0;
      if (at <= lastReconnect) missingWhileDown++;
      else socketMissing++;
    }
    let acksNotFinal = 0;
    let acksBackwards = 0;
    for (const ob of outbound) {
      const m = (await getMessageItem(ready.orgId, ob.chat, ob.unique_id)) as { ack?: number } | null;
      if (m?.ack !== 3) acksNotFinal++;
      const seq = acks.get(ob.unique_id) ?? [];
      if (seq.some((a, i) => i > 0 && a < seq[i - 1]!)) acksBackwards++;
    }
    return {
      webhooks: items.length,
      unique_messages: uniques.length,
      duplicates_sent: dupCount,
      reactions_sent: reactedTargets.size,
      statuses_sent: statusCount,
      answered_200: answered,
      retried_posts: retried,
      killed,
      ddb_restarted: ddbRestarted,
      seconds,
      lost,
      duplicates_stored: duplicatesStored,
      unread_wrong: unreadWrong,
      reactions_missing: reactionsMissing,
      acks_not_final: acksNotFinal,
      acks_backwards: acksBackwards,
      socket_events: [...eventIds.values()].reduce((a, b) => a + b, 0),
      socket_duplicate_ids: [...eventIds.values()].filter((n) => n > 1).length,
      socket_missing_while_down: missingWhileDown,
      socket_missing: socketMissing,
      dead_letters: Number(idle.dead_letters ?? 0),
      stray_rejections: Number(idle.stray_rejections ?? 0),
      dead_letters_by_queue: (idle.by_queue ?? {}) as Record<string, number>,
    };
  } finally {
    for (const s of sockets) s.terminate();
    await child.stop().catch(() => undefined);
    await ddb.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
