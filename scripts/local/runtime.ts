import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { batchingWindowMs, COMMAND_QUEUES, SUBSCRIPTIONS, WORKER_QUEUES } from '../../events/catalog.ts';
import { setEventTransport } from '../../events/publish.ts';
// issue 19: queue status for a platform org's dashboard
import { setQueueStatusSource } from '../../shared/ports/queue-status.ts';
import { setCommandTransport, type CommandQueue } from '../../shared/ports/commands.ts';
import { resetConfig } from '../../shared/config.ts';
import { resetDb } from '../../shared/db/service.ts';
import { resetDocumentClient, setDynamoCallGate } from '../../shared/db/client.ts';
import { DbCallGate, classOf } from './db-gate.ts';
import { logContext } from '../../shared/log.ts';
import { resetRealtimeClient } from '../../shared/ports/realtime.ts';
import { setSchedulerPort } from '../../shared/ports/scheduler.ts';
import { setSearchPort, type SearchDoc, type SearchPort } from '../../shared/ports/search.ts';
import { allOrgIds, reindexOrg } from '../../shared/search/reindex.ts';
import { setBlobPort } from '../../shared/ports/blobs.ts';
import { cognitoIdentity, setIdentityPort } from '../../shared/ports/identity.ts';
import { startLocalScheduler } from './scheduler.ts';
import { startLocalSearchWorker } from './search-worker.ts';
import { startLocalBlobs, type LocalBlobs } from './blobs.ts';
import { ensureTable, startDynamoDb } from './dynamodb.ts';
import { runMigrations } from '../../shared/db/migrations.ts';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startCognito, ensurePool, ensureUser, LOCAL_ISSUER_DOMAIN } from './cognito.ts';
import { LaneGate, LocalQueue, readDeadLetters, recordErrors, type SqsHandler } from './queue.ts';
import { setRecordFailureSink } from '../../functions/lib/sqs.ts';
import { localBus } from './bus.ts';
import { isLoopbackHost, LocalGateway } from './gateway.ts';
import { generateTokenKey } from '../../shared/phone/token-crypto.ts';
import { generateVapidKeys, resetVapidKeys } from '../../shared/push/vapid.ts';
import { dataDirSecret, generateDemoPassword, randomKey, tokenSigningKey } from './secrets.ts';
import { GraphStandIn } from './graph-standin.ts';
import { WaWebStandIn } from './wa-web-standin.ts';
import { SessionWorker } from '../../shared/whatsapp/web/session-worker.ts';
import { baileysSocketFactory } from '../../shared/whatsapp/web/baileys-socket.ts';
import { loadHandler, REPO_ROOT } from './handlers.ts';
import { retireDemoOrg, seedDemo } from './seed.ts';
import { startLocalOutbox, type LocalOutbox } from './outbox.ts';
import { startOutboxPoller, type OutboxPoller } from '../../events/outbox.ts';
import { CustomAuthStandIn } from './cognito-auth.ts';
import { localHelpLinks } from './docs.ts';
import { setMailPort } from '../../shared/ports/mail.ts';
import { setBillingPort } from '../../shared/plan/billing-port.ts';
import { localBillingPort } from '../../shared/plan/billing-local.ts';
import { handleBillingWebhook } from '../../shared/plan/plan.ts';
import { setSingleWriter } from '../../shared/db/read-cache.ts';

/**
 * The embedded default: every AWS service Chorus uses, stood in for on one machine, running the
 * same handlers as Lambda (architecture.md §3). State lives under `dataDir` (DynamoDB Local files,
 * cognito-local's store, queue files, runtime.json), so a restart keeps chats, users and pending work.
 * One runtime per process (handlers read process-wide configuration).
 */
export interface RuntimeOptions {
  dataDir: string;
  port: number;
  /** address the gateway listens on: default HOST or 127.0.0.1 (this machine only) */
  host?: string;
  /** keep the table in memory (tests); default false */
  inMemoryTable?: boolean;
  /**
   * use this DynamoDB (Local) endpoint instead of starting one (the table is created if missing):
   * the ingest fault harness restarts DynamoDB Local under a running runtime
   */
  dynamoEndpoint?: string;
  /** the demo users; `password` default: CHORUS_DEMO_PASSWORD, else generated once per data dir (`<dataDir>/demo-password`) */
  demo?: { adminEmail: string; memberEmail: string; password?: string };
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** issue 22: start on a fresh demo org (the old one is retired: its members and phones removed); `npm run demo:reset` */
  resetDemo?: boolean;
  /**
   * issue 49 item 3: the Graph stand-in follows each accepted send with signed sent → delivered →
   * read status webhooks (graph-standin.ts), optionally with other delays (ms after the send).
   * Default off (tests assert exact acks); `npm start` turns it on unless CHORUS_GRAPH_STATUSES=0.
   */
  graphStatuses?: boolean | { delaysMs: { sent: number; delivered: number; read: number } };
  /**
   * issue 49 item 8: allow outbound webhooks to a test receiver on this machine (http://127.0.0.1,
   * http://localhost) while the runtime listens on loopback only; `npm start` asks for it.
   * See {@link loopbackWebhooksSetting}.
   */
  localWebhookReceivers?: boolean;
}

/**
 * The CHORUS_WEBHOOKS_ALLOW_LOOPBACK the runtime sets (undefined: leave it alone). An explicit
 * setting always wins (0 keeps loopback refused). Otherwise loopback receivers are allowed only
 * when asked for (npm start) AND Chorus listens on this machine only: then everyone who can use it
 * can already reach this machine's loopback, so the webhook engine gives nobody a new reach. On
 * HOST=0.0.0.0 (others on the network can sign in) it stays off, as the SSRF guard means it to;
 * in AWS the policy ignores the variable altogether (shared/webhooks/policy.ts).
 */
export function loopbackWebhooksSetting(explicit: string | undefined, wanted: boolean, host: string): string | undefined {
  if (explicit) return explicit;
  return wanted && isLoopbackHost(host) ? '1' : undefined;
}

export interface Runtime {
  url: string;
  port: number;
  /** the address the gateway listens on */
  host: string;
  /** the demo users and their password */
  demo: { adminEmail: string; memberEmail: string; password: string };
  orgId: string;
  userPoolId: string;
  clientId: string;
  cognitoEndpoint: string;
  dynamoEndpoint: string;
  graph: GraphStandIn;
  /** the WhatsApp Web stand-in (what linked numbers sent; inject inbound Baileys events) */
  waWeb: WaWebStandIn;
  /** the in-process WhatsApp Web session worker (whatsapp-protocols.md §B.11) */
  waWebWorker: SessionWorker;
  /** the blob store (media files) under `<dataDir>/blobs/` */
  blobs: LocalBlobs;
  /** the emails 'sent' (sign-in codes, invitations) under `<dataDir>/outbox/`, page `/_local/outbox` */
  outbox: LocalOutbox;
  /**
   * the domain-event outbox's poller (events/outbox.ts): relays events whose writer died between
   * its commit and its publish (rows older than the grace period), at start and every second
   */
  eventOutbox: OutboxPoller;
  queues: Map<string, LocalQueue>;
  gateway: LocalGateway;
  env: Record<string, string>;
  /** create (or find) a confirmed Cognito user; @returns its sub */
  createUser(email: string, password: string): Promise<string>;
  /** resolves when every queue is empty */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

interface State {
  userPoolId?: string;
  clientId?: string;
  orgId?: string;
}

/**
 * Batches in flight per subscription queue locally (default 4). In AWS Lambda scales a busy queue
 * out; locally 4 batches of 10 capped the rules engine at 40 events in flight, and each event waits
 * for its actions (a note, a message: DynamoDB round trips), so at bench:rules' rates events
 * queued behind full batches (issue 17: "queued" p50 ~0.2-1.9 s). 8 still left bench:rules'
 * "queued" p95 at 0.5-0.8 s (load 9-15): 16 (env CHORUS_RULES_ENGINE_CONCURRENCY).
 */
const LOCAL_SUBSCRIPTION_CONCURRENCY: Record<string, number> = { 'rules-engine': Number(process.env.CHORUS_RULES_ENGINE_CONCURRENCY) || 16 };

/**
 * The live lane (queue.ts LaneGate): what a person waits for — an inbound message stored, an
 * outbound one sent, either pushed to the sockets — and the automation rules, whose actions (an
 * auto-reply, an assignment) have a latency target of their own (issue 17: 500 ms p95). Every
 * other subscription and command queue is background: while the live lane has work, background
 * queues share a few batches in flight.
 */
const LIVE_QUEUES = new Set(['whatsapp-inbound', 'wa-web-inbound', 'whatsapp-outbound', 'realtime-fanout', 'rules-engine', 'rule-actions']);

/**
 * Downstream first (queue.ts LaneGate.chain): an inbound queue starts no batch while a queue its
 * messages feed has deliverable events that no free slot took. On one saturated machine this
 * finishes the work already stored before storing more: issue 17's `npm run bench:rules -- --seconds 20`
 * (200 messages/s, more than 2 cores keep up with) went from p95 4.7 s to 2.0 s stored → rule action
 * done, with all handled after about the same time (60 vs 63 s); the webhooks wait on the durable
 * inbound queue instead (answered 200 at once as before). `npm run bench:hot-chat` and
 * `bench:ingest` showed no difference beyond their noise (3 and 2 runs each way).
 */
/**
 * DynamoDB calls in flight at once (0: no gate), and the aging of waiting ones, ms (db-gate.ts).
 * Opt-in (env CHORUS_DB_INFLIGHT=4): on 2026-11-28 this machine ran far slower than the day
 * before and its A/B pairs were too noisy to make it the default without a full CI run.
 * `npm run bench:hot-chat -- --messages 1000 --others 500 --in-memory`, p95 one chat at 80/s / 100
 * chats at 100/s, interleaved: 4: 361 / 1,346, 517 / 1,277 ms; off: 350 / 1,627, 712 / 2,193 ms; 2:
 * 339 / 1,706 ms. On disk (`--messages 2000 --others 2000`): 4: 333 / 713, 342 / 2,809 ms; off: 2,448 /
 * 2,882, 352 / 2,928 ms. `npm run bench:rules -- --seconds 20`: 4: p95 1,428 ms, all handled after
 * 73.9 s; off 1,464–1,643 ms, 85.6–89.6 s. `npm run bench:ingest`: ratio 0.23 either way.
 */
const DB_INFLIGHT = 0;
const DB_AGING_MS = 100;

const DOWNSTREAM_FIRST: Array<[string, string]> = [
  ['whatsapp-inbound', 'rules-engine'],
  ['whatsapp-inbound', 'realtime-fanout'],
  ['wa-web-inbound', 'rules-engine'],
  ['wa-web-inbound', 'realtime-fanout'],
];

export const DEMO_DEFAULTS = {
  adminEmail: 'admin@chorus.local',
  memberEmail: 'member@chorus.local',
  appSecret: 'chorus-local-app-secret',
  verifyToken: 'chorus-local-verify-token',
  accessToken: 'chorus-local-access-token',
  phoneNumberId: '106540352242922',
  displayPhoneNumber: '15550783881',
  /** issue 16: the stand-in's WhatsApp Business Account (templates) */
  wabaId: '102290129340398',
};

export async function startRuntime(opts: RuntimeOptions): Promise<Runtime> {
  // Node 20 is what this machine has; the SDK's move to Node 22 is noted in the README.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const dataDir = resolve(opts.dataDir);
  await mkdir(dataDir, { recursive: true });
  const stateFile = join(dataDir, 'runtime.json');
  const state: State = JSON.parse(await readFile(stateFile, 'utf8').catch(() => '{}'));

  const stops: Array<() => Promise<void>> = [];
  // this process is its table's only writer: per-process read caches may keep Query pages until
  // its own writes forget them (shared/db/read-cache.ts); CHORUS_READ_CACHE=off when something
  // else writes the same table
  setSingleWriter(process.env.CHORUS_READ_CACHE !== 'off');
  stops.push(async () => setSingleWriter(false));
  try {
    const tableName = process.env.TABLE_NAME || 'chorus';
    const [dynamo, cognito] = await Promise.all([
      opts.dynamoEndpoint ? externalDynamoDb(opts.dynamoEndpoint, tableName) : startDynamoDb(opts.inMemoryTable ? null : join(dataDir, 'dynamodb'), tableName),
      startCognito(join(dataDir, 'cognito')),
    ]);
    stops.push(() => dynamo.stop(), cognito.stop);
    const pool = await ensurePool(cognito, state.userPoolId && state.clientId ? { userPoolId: state.userPoolId, clientId: state.clientId } : undefined);

    // secrets generated once per data dir, like a deployment's (scripts/local/secrets.ts): the key of
    // phone tokens at rest, the key that signs ID tokens, the key of email code hashes
    const phoneTokenKey = process.env.PHONE_TOKEN_KEY || (await dataDirSecret(dataDir, 'phone-token-key', generateTokenKey)).value;
    const otpKey = process.env.OTP_HMAC_KEY || (await dataDirSecret(dataDir, 'otp-hmac-key', randomKey)).value;
    // issue 42 §4: the key of masked contact and chat ids (AWS: a Secrets Manager secret)
    const maskedIdKey = process.env.MASKED_ID_KEY || (await dataDirSecret(dataDir, 'masked-id-key', randomKey)).value;
    const signingKey = await tokenSigningKey(dataDir);
    // web push: one VAPID pair per data dir (browsers bind their subscriptions to its public key)
    // issue 22: the billing webhook secret (Stripe scheme) of this data dir, unless Stripe is configured
    const billingSecret = process.env.STRIPE_WEBHOOK_SECRET || (await dataDirSecret(dataDir, 'billing-webhook-secret', () => `whsec_${randomKey().replace(/[^A-Za-z0-9]/g, '')}`)).value;
    const vapid = JSON.parse((await dataDirSecret(dataDir, 'vapid.json', () => JSON.stringify(generateVapidKeys()))).value) as { publicKey: string; privateKey: string };
    const host = opts.host ?? (process.env.HOST || '127.0.0.1');
    // how the in-process handlers reach the gateway: any interface answers on loopback
    const selfHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    const url = `http://${selfHost === '127.0.0.1' ? 'localhost' : selfHost}:${opts.port}`;
    const env: Record<string, string> = {
      TABLE_NAME: tableName,
      AWS_REGION: process.env.AWS_REGION || 'us-east-1',
      AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID || 'local',
      AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY || 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      COGNITO_ISSUER: `${LOCAL_ISSUER_DOMAIN}/${pool.userPoolId}`,
      // the data dir's key only: tokens signed with cognito-local's published key are refused
      COGNITO_JWKS: JSON.stringify({ keys: [signingKey.publicJwk] }),
      COGNITO_CLIENT_ID: pool.clientId,
      WHATSAPP_APP_SECRET: process.env.WHATSAPP_APP_SECRET || DEMO_DEFAULTS.appSecret,
      WHATSAPP_VERIFY_TOKEN: process.env.WHATSAPP_VERIFY_TOKEN || DEMO_DEFAULTS.verifyToken,
      WHATSAPP_ACCESS_TOKEN: process.env.WHATSAPP_ACCESS_TOKEN || DEMO_DEFAULTS.accessToken,
      WHATSAPP_GRAPH_URL: process.env.WHATSAPP_GRAPH_URL || `http://${selfHost}:${opts.port}/__graph`,
      WHATSAPP_PHONE_NUMBER_ID: process.env.WHATSAPP_PHONE_NUMBER_ID || DEMO_DEFAULTS.phoneNumberId,
      WHATSAPP_DISPLAY_PHONE_NUMBER: process.env.WHATSAPP_DISPLAY_PHONE_NUMBER || DEMO_DEFAULTS.displayPhoneNumber,
      // issue 16: the env phone's WABA (template sync); the stand-in's own one unless a real Graph URL is set
      WHATSAPP_WABA_ID: process.env.WHATSAPP_WABA_ID || (process.env.WHATSAPP_GRAPH_URL ? '' : DEMO_DEFAULTS.wabaId),
      // issue 16: the stand-in's send lookup (settles broadcast sends cut by a crash); a real Graph URL has none
      WHATSAPP_GRAPH_SEND_LOOKUP: process.env.WHATSAPP_GRAPH_SEND_LOOKUP || (process.env.WHATSAPP_GRAPH_URL ? '0' : '1'),
      PHONE_TOKEN_KEY: phoneTokenKey,
      OTP_HMAC_KEY: otpKey,
      MASKED_ID_KEY: maskedIdKey,
      WS_MANAGEMENT_URL: `http://${selfHost}:${opts.port}/_ws`,
      APP_URL: process.env.APP_URL || url,
      VAPID_PUBLIC_KEY: process.env.VAPID_PUBLIC_KEY || vapid.publicKey,
      VAPID_PRIVATE_KEY: process.env.VAPID_PRIVATE_KEY || vapid.privateKey,
      // tests add their loopback push receiver here (never on by default: a user-supplied endpoint must be a browser push service)
      PUSH_ALLOW_LOOPBACK_HTTP: process.env.PUSH_ALLOW_LOOPBACK_HTTP || '0',
      ...(process.env.PUSH_ENDPOINT_HOSTS ? { PUSH_ENDPOINT_HOSTS: process.env.PUSH_ENDPOINT_HOSTS } : {}),
      LOG_LEVEL: opts.logLevel ?? (process.env.LOG_LEVEL as string) ?? 'info',
      // issue 22: billing webhooks and the incident file (`npm run incident`)
      STRIPE_WEBHOOK_SECRET: billingSecret,
      INCIDENT_FILE: process.env.INCIDENT_FILE || join(dataDir, 'incident.json'),
    };
    const loopbackWebhooks = loopbackWebhooksSetting(process.env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK, !!opts.localWebhookReceivers, host);
    if (loopbackWebhooks) env.CHORUS_WEBHOOKS_ALLOW_LOOPBACK = loopbackWebhooks;
    // The local dynamo endpoint must win over a LocalStack-wide AWS_ENDPOINT_URL for this runtime.
    delete process.env.AWS_ENDPOINT_URL;
    Object.assign(process.env, env);
    resetConfig();
    resetVapidKeys();
    resetDocumentClient();
    resetDb();
    resetRealtimeClient();
    // DynamoDB Local serves one call at a time: the live lane's calls go first (db-gate.ts; env
    // CHORUS_DB_INFLIGHT calls at once, 0 = no gate, CHORUS_DB_AGING_MS)
    const inFlight = process.env.CHORUS_DB_INFLIGHT ? Number(process.env.CHORUS_DB_INFLIGHT) : DB_INFLIGHT;
    if (inFlight > 0) {
      const dbGate = new DbCallGate(inFlight, Number(process.env.CHORUS_DB_AGING_MS) || DB_AGING_MS);
      setDynamoCallGate((send) => dbGate.run(classOf(logContext().queue as string | undefined), send));
      stops.push(async () => setDynamoCallGate(undefined));
    }
    // one-off data migrations this table has not had yet (shared/db/migrations.ts)
    await runMigrations({ log: (line) => console.log(line) });

    // the embedded search index, installed before any consumer can ask for it
    // (a lost index file is rebuilt from the table: every org's documents, collected once)
    let collected: Promise<Map<string, SearchDoc[]>> | undefined;
    const collect = () =>
      (collected ??= (async () => {
        const by = new Map<string, SearchDoc[]>();
        const sink: SearchPort = {
          upsert: async (index, docs) => void by.set(index, [...(by.get(index) ?? []), ...docs]),
          remove: async () => undefined,
          search: async () => [],
        };
        for (const org of await allOrgIds()) await reindexOrg(org, sink);
        return by;
      })());
    // on its own thread: its heap (1.4 GiB at 1M messages) stays out of the request path's collections
    const search = await startLocalSearchWorker(dataDir, async (index) => (await collect()).get(index) ?? []);
    // the documents a rebuild read from the table are the worker's now: not kept here for the runtime's life
    collected = undefined;
    setSearchPort(search);
    stops.push(async () => {
      await search.stop();
      setSearchPort(undefined);
    });

    // the file-backed blob store (media), installed before the media consumer can ask for it
    const blobs = await startLocalBlobs(dataDir);
    setBlobPort(blobs);
    stops.push(async () => {
      await blobs.stop();
      setBlobPort(undefined);
    });

    // the mail outbox (sign-in codes, invitations), installed before anything can send
    const outbox = await startLocalOutbox(dataDir);
    setMailPort(outbox);
    stops.push(async () => setMailPort(undefined));

    // issue 22: the payment port's local stand-in (checkout completes at once through a signed
    // invoice.paid), unless a Stripe secret key is configured
    if (!process.env.STRIPE_SECRET_KEY) {
      setBillingPort(localBillingPort({ dataDir, webhookSecret: billingSecret, deliver: async (raw, sig) => void (await handleBillingWebhook(raw, sig)) }));
      stops.push(async () => setBillingPort(undefined));
    }

    const queues = new Map<string, LocalQueue>();
    // failed records' errors become their dead letters' reasons (SQS answers carry ids only)
    setRecordFailureSink((id, error) => recordErrors.set(id, error));
    const lazy = (ref: string): SqsHandler => async (event) => (await loadHandler<SqsHandler>(ref))(event);
    const envNumber = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
    const gate = new LaneGate(envNumber('CHORUS_BACKGROUND_FLOOR'), envNumber('CHORUS_BACKGROUND_DUTY'), envNumber('CHORUS_BACKGROUND_QUIET_MS'), envNumber('CHORUS_BACKGROUND_MAX_LAG_MS'));
    const lane = (name: string) => ({ gate, lane: LIVE_QUEUES.has(name) ? ('live' as const) : ('background' as const) });
    for (const s of SUBSCRIPTIONS) queues.set(s.name, new LocalQueue(s.name, dataDir, lazy(s.handler), { maxReceiveCount: s.maxReceiveCount, batchSize: s.batchSize, batchWindowMs: batchingWindowMs(s.batchSize), concurrency: LOCAL_SUBSCRIPTION_CONCURRENCY[s.name] ?? 4, ...lane(s.name) }));
    for (const c of COMMAND_QUEUES) queues.set(c.name, new LocalQueue(c.name, dataDir, lazy(c.handler), { maxReceiveCount: c.maxReceiveCount, batchSize: c.batchSize, batchWindowMs: batchingWindowMs(c.batchSize, 'fifo' in c && c.fifo), concurrency: c.concurrency, ...lane(c.name) }));
    // the WhatsApp Web session worker (ECS in AWS) runs in-process; its sockets are the stand-in's
    // unless WA_WEB_TRANSPORT=baileys (a real phone and network), and its FIFO queue is a local queue
    // delivering one command at a time (order per number kept)
    const waWeb = new WaWebStandIn();
    const waWebWorker = new SessionWorker({ id: `local:${process.pid}`, connect: process.env.WA_WEB_TRANSPORT === 'baileys' ? baileysSocketFactory() : waWeb.factory, heartbeatMs: 2_000, leaseMs: 10_000 });
    for (const w of WORKER_QUEUES) queues.set(w.name, new LocalQueue(w.name, dataDir, waWebWorker.sqsHandler(), { maxReceiveCount: w.maxReceiveCount, batchSize: w.batchSize, concurrency: 1, backoffMs: (n) => Math.min(5_000, 100 * 2 ** (n - 1)) }));
    // downstream first (queue.ts LaneGate.chain): the inbound queues wait while the rules engine or
    // the socket fan-out they feed has a backlog (env CHORUS_DOWNSTREAM_FIRST=off: they do not)
    if (process.env.CHORUS_DOWNSTREAM_FIRST !== 'off')
      for (const [up, down] of DOWNSTREAM_FIRST) {
        const u = queues.get(up);
        const d = queues.get(down);
        if (u && d) gate.chain(u, d);
      }
    setEventTransport(localBus(queues));
    // issue 19: a platform org's /dashboard reads the queues' depths and dead letters
    setQueueStatusSource(() => [...queues.values()].map((q) => ({ name: q.name, depth: q.depth, dead_letters: q.deadLettered })));
    stops.push(async () => setQueueStatusSource(undefined));
    setCommandTransport({
      send: async (q: CommandQueue, body: string, opts) => {
        const queue = queues.get(q);
        if (!queue) throw new Error(`no local queue ${q}`);
        // FIFO groups are honoured locally too (one in-flight batch per group, in order)
        await queue.send(body, { groupId: opts?.groupId });
      },
    });

    // the local scheduler, installed before the gateway serves anything that schedules; what it
    // fires waits until the queues have started (start() reloads the queue files, so nothing may be
    // sent into a queue before it)
    let openQueues!: () => void;
    let closeQueues!: (e: Error) => void;
    const queuesOpen = new Promise<void>((res, rej) => {
      openQueues = res;
      closeQueues = rej;
    });
    queuesOpen.catch(() => undefined);
    const scheduler = await startLocalScheduler(dataDir, async (q, body) => {
      await queuesOpen;
      const queue = queues.get(q);
      if (!queue) throw new Error(`no local queue ${q}`);
      await queue.send(body);
    });
    setSchedulerPort(scheduler);
    const stopScheduler = async () => {
      closeQueues(new Error('the runtime is stopping'));
      await scheduler.stop();
      setSchedulerPort(undefined);
    };
    stops.unshift(stopScheduler);

    // the identity port (invites create users) on cognito-local, its admin writes one at a time
    setIdentityPort(cognitoIdentity({ client: cognito.client, userPoolId: pool.userPoolId, serial: cognito.serial }));
    stops.push(async () => setIdentityPort(undefined));

    const configured = opts.demo?.password || process.env.CHORUS_DEMO_PASSWORD;
    const generated = configured ? undefined : await dataDirSecret(dataDir, 'demo-password', generateDemoPassword);
    const demo = {
      adminEmail: (opts.demo?.adminEmail || process.env.CHORUS_DEMO_ADMIN_EMAIL || DEMO_DEFAULTS.adminEmail).toLowerCase(),
      memberEmail: (opts.demo?.memberEmail || process.env.CHORUS_DEMO_MEMBER_EMAIL || DEMO_DEFAULTS.memberEmail).toLowerCase(),
      password: configured || generated!.value,
    };
    // a data dir from before generated passwords: its demo users get the new one
    const resetPassword = !!generated?.created;
    const [adminSub, memberSub] = await Promise.all([
      ensureUser(cognito, pool.userPoolId, demo.adminEmail, demo.password, resetPassword),
      ensureUser(cognito, pool.userPoolId, demo.memberEmail, demo.password, resetPassword),
    ]);
    if (opts.resetDemo && state.orgId) await retireDemoOrg(state.orgId); // issue 22: demo reset
    const orgId = await seedDemo({
      orgId: opts.resetDemo ? undefined : state.orgId,
      orgName: 'Demo Workspace',
      admin: { email: demo.adminEmail, sub: adminSub, name: 'Demo Admin' },
      member: { email: demo.memberEmail, sub: memberSub, name: 'Demo Member' },
      phone: { phone_number_id: env.WHATSAPP_PHONE_NUMBER_ID, display_phone_number: env.WHATSAPP_DISPLAY_PHONE_NUMBER },
    });
    await writeFile(stateFile, JSON.stringify({ ...state, userPoolId: pool.userPoolId, clientId: pool.clientId, orgId }, null, 2));

    // its send ledger (the send lookup) outlives a restart of this process, as Meta's would
    const helpLinks = localHelpLinks();
    const graph = new GraphStandIn({ ledgerFile: join(dataDir, 'graph-sends.jsonl') });
    if (opts.graphStatuses)
      graph.simulateStatuses({
        url: `http://${selfHost}:${opts.port}/webhooks/whatsapp`,
        appSecret: env.WHATSAPP_APP_SECRET,
        displayNumbers: { [env.WHATSAPP_PHONE_NUMBER_ID]: env.WHATSAPP_DISPLAY_PHONE_NUMBER.replace(/\D/g, '') },
        wabaId: env.WHATSAPP_WABA_ID || DEMO_DEFAULTS.wabaId,
        ...(typeof opts.graphStatuses === 'object' ? { delaysMs: opts.graphStatuses.delaysMs } : {}),
      });
    stops.push(async () => graph.stop());
    const gateway = new LocalGateway({
      port: opts.port,
      host,
      devRoutesEverywhere: process.env.CHORUS_DEV_ROUTES === '1',
      webDist: join(REPO_ROOT, 'web', 'dist'),
      docsRoot: REPO_ROOT,
      cognitoEndpoint: cognito.endpoint,
      graph,
      waWeb,
      blobs,
      outbox,
      deadLetters: {
        list: () => readDeadLetters(dataDir),
        redrive: async (name: string) => queues.get(name)?.redrive() ?? null,
      },
      cognitoAuth: new CustomAuthStandIn({ client: cognito.client, userPoolId: pool.userPoolId, issuer: env.COGNITO_ISSUER, region: env.AWS_REGION, signingKey, authSessionValidityMin: 10 }),
      webConfig: (reqHost: string, devRoutes: boolean) => ({
        apiUrl: '',
        wsUrl: `ws://${reqHost}/ws`,
        region: env.AWS_REGION,
        userPoolId: pool.userPoolId,
        userPoolClientId: pool.clientId,
        cognitoEndpoint: `http://${reqHost}/cognito`,
        ...(devRoutes ? { localOutboxUrl: '/_local/outbox' } : {}),
        stage: 'local',
        // issue 49 item 10: the Help menu's links (the manual at /docs; CHORUS_LINK_<KEY> for the rest)
        links: helpLinks,
      }),
    });
    await gateway.start();
    stops.unshift(() => gateway.stop());
    for (const q of queues.values()) await q.start();
    openQueues();
    // the outbox poller publishes into the queues: started once they are, stopped before them
    const eventOutbox = startOutboxPoller({ intervalMs: Number(process.env.CHORUS_OUTBOX_POLL_MS) || 1_000 });
    await waWebWorker.start();
    stops.unshift(() => waWebWorker.stop());
    stops.unshift(async () => {
      for (const q of queues.values()) await q.stop();
    });
    stops.unshift(() => eventOutbox.stop());
    // the scheduler sends into the queues: it stops first (a wake-up fired then stays in its file)
    stops.unshift(...stops.splice(stops.indexOf(stopScheduler), 1));

    return {
      url,
      port: opts.port,
      host,
      demo,
      orgId,
      userPoolId: pool.userPoolId,
      clientId: pool.clientId,
      cognitoEndpoint: cognito.endpoint,
      dynamoEndpoint: dynamo.endpoint,
      graph,
      blobs,
      outbox,
      eventOutbox,
      waWeb,
      waWebWorker,
      queues,
      gateway,
      env,
      createUser: (email, password) => ensureUser(cognito, pool.userPoolId, email.toLowerCase(), password),
      async idle() {
        // events published by one queue's consumer land on another: loop until all are empty
        await gate.hurry(async () => {
          for (let i = 0; i < 20; i++) {
            await Promise.all([...queues.values()].map((q) => q.idle()));
            if ([...queues.values()].every((q) => q.depth === 0)) return;
          }
        });
      },
      async stop() {
        for (const s of stops) await s().catch(() => undefined);
        setEventTransport(undefined);
        setCommandTransport(undefined);
      },
    };
  } catch (e) {
    for (const s of stops) await s().catch(() => undefined);
    throw e;
  }
}

/** A DynamoDB endpoint someone else runs: the table is ensured, stopping leaves it running. */
async function externalDynamoDb(endpoint: string, tableName: string): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await ensureTable(client, tableName);
  } finally {
    client.destroy();
  }
  return { endpoint, stop: async () => undefined };
}
