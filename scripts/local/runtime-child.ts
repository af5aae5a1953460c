import { createInterface } from 'node:readline';
import { startRuntime } from './runtime.ts';
import { logStrayRejections } from './process-guard.ts';

/**
 * The local runtime as a child process that a harness can `kill -9` (issue 23 item 2,
 * scripts/ingest-faults.ts). argv[2]: JSON `{ dataDir, port, dynamoEndpoint }`.
 * Prints one JSON line when ready: `{ ready, url, orgId, clientId, demo, appSecret, phone }`.
 * Reads commands on stdin, one per line, and answers each with one JSON line:
 * - `idle`: waits until every queue is empty → `{ idle: true, depth, dead_letters, by_queue }`;
 * - `profile`: with BENCH_PROFILE_DDB=1, the DynamoDB calls so far by queue and command → `{ profile }`;
 * - `stop`: stops gracefully and exits 0.
 */
const strays = logStrayRejections('runtime-child');
const opts = JSON.parse(process.argv[2] ?? '{}') as { dataDir: string; port: number; dynamoEndpoint: string };
const rt = await startRuntime({ dataDir: opts.dataDir, port: opts.port, dynamoEndpoint: opts.dynamoEndpoint, logLevel: process.env.LOG_LEVEL === 'error' ? 'error' : 'silent' });
// BENCH_PROFILE_DDB=1: DynamoDB calls by consumer queue and command from here on (the runtime made its client), printed by `profile`
const printProfile = process.env.BENCH_PROFILE_DDB === '1' ? await (await import('../bench-lib.ts')).profileDynamoDb({ byQueue: true }) : undefined;
const say = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
say({
  ready: true,
  url: rt.url,
  orgId: rt.orgId,
  clientId: rt.clientId,
  demo: rt.demo,
  appSecret: rt.env.WHATSAPP_APP_SECRET,
  phone: { phone_number_id: rt.env.WHATSAPP_PHONE_NUMBER_ID, display_phone_number: rt.env.WHATSAPP_DISPLAY_PHONE_NUMBER },
});
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'idle') {
    await rt.idle();
    const qs = [...rt.queues.values()];
    say({ idle: true, stray_rejections: strays(), depth: qs.reduce((n, q) => n + q.depth, 0), dead_letters: qs.reduce((n, q) => n + q.deadLettered, 0), by_queue: Object.fromEntries(qs.filter((q) => q.deadLettered).map((q) => [q.name, q.deadLettered])) });
  } else if (line === 'profile') {
    say({ profile: printProfile?.() ?? '' });
  } else if (line === 'stop') {
    await rt.stop();
    process.exit(0);
  }
}
