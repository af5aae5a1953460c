import { join, resolve } from 'node:path';
import { buildWebIfStale } from './build-web.ts';
import { startRuntime, DEMO_DEFAULTS } from './runtime.ts';
import { REPO_ROOT } from './handlers.ts';
import { isLoopbackHost } from './gateway.ts';
import { seedSampleData } from './seed-sample.ts';
import { db } from '../../shared/db/service.ts';
import { logStrayRejections } from './process-guard.ts';

/** Seed the demo org's sample data through the use cases (scripts/local/seed-sample.ts; idempotent). */
async function seedDemoSample(rt: Awaited<ReturnType<typeof startRuntime>>): Promise<void> {
  const member = async (email: string) => {
    const m = (await db().entities.member.get({ org_id: rt.orgId, email }).go()).data;
    if (!m) throw new Error(`demo member ${email} missing`);
    return { email, user_id: m.user_id ?? email };
  };
  const seeded = await seedSampleData({
    orgId: rt.orgId,
    admin: await member(rt.demo.adminEmail),
    member: await member(rt.demo.memberEmail),
    phone: { phone_number_id: rt.env.WHATSAPP_PHONE_NUMBER_ID, display_phone_number: rt.env.WHATSAPP_DISPLAY_PHONE_NUMBER },
  });
  if (seeded) console.log('Demo workspace: sample chats, tickets, tasks and contacts added.');
}

/**
 * `npm start`: the embedded default. Builds the web app when its sources are newer than the
 * bundle, starts every local stand-in, seeds the demo workspace on first start and prints how to
 * use it. Settings: PORT (3000), HOST (127.0.0.1: this machine only), CHORUS_DEV_ROUTES (1 = the
 * development routes for every client, not only this machine), CHORUS_DATA_DIR (.data),
 * CHORUS_DEMO_ADMIN_EMAIL, CHORUS_DEMO_MEMBER_EMAIL, CHORUS_DEMO_PASSWORD (default: generated once
 * per data dir, in `<data dir>/demo-password`), CHORUS_GRAPH_STATUSES (0 = the Graph stand-in sends no
 * sent/delivered/read statuses after a reply; default on), WHATSAPP_* (see README).
 */
async function main() {
  logStrayRejections('chorus');
  buildWebIfStale();
  const port = Number(process.env.PORT || 3000);
  const dataDir = resolve(process.env.CHORUS_DATA_DIR || join(REPO_ROOT, '.data'));
  // issue 22: `npm run demo:reset` (CHORUS_DEMO_RESET=1) starts on a fresh demo org
  const resetDemo = process.env.CHORUS_DEMO_RESET === '1';
  // issue 49 item 3: replies go sent → delivered → read like on WhatsApp (a real Graph URL sends its own)
  // issue 49 item 8: webhooks to a test receiver on this machine, while Chorus listens on it only
  const rt = await startRuntime({ dataDir, port, resetDemo, graphStatuses: process.env.CHORUS_GRAPH_STATUSES !== '0', localWebhookReceivers: true });
  // issue 22: the demo workspace's sample chats, tickets, tasks and contacts (once per demo org)
  await seedDemoSample(rt).catch((e: unknown) => console.error(`Could not seed the demo sample data: ${String((e as Error)?.stack ?? e)}`));
  const e = rt.env;
  const devEverywhere = process.env.CHORUS_DEV_ROUTES === '1';
  const exposed = !isLoopbackHost(rt.host);
  const warning = [
    ...(exposed
      ? [
          '',
          '  !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
          `  !!  WARNING: listening on ${rt.host}, not only on this machine (HOST=${rt.host}).`,
          '  !!  Anyone who can reach this address can try to sign in. Unset HOST to listen on 127.0.0.1.',
          '  !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
        ]
      : []),
    ...(devEverywhere
      ? [
          '',
          '  !!  WARNING: CHORUS_DEV_ROUTES=1: sign-in codes (/_local/outbox), the Cognito stand-in, the',
          '  !!  Graph stand-in (every token sent) and message injection answer EVERY client, not only this machine.',
        ]
      : []),
  ];
  const lines = [
    ...warning,
    '',
    `Chorus is running: ${rt.url}${exposed ? `  (listening on ${rt.host})` : '  (this machine only)'}`,
    '',
    `  Sign in as admin:  ${rt.demo.adminEmail}`,
    `  Sign in as member: ${rt.demo.memberEmail}`,
    `  Password (both):   ${rt.demo.password}${process.env.CHORUS_DEMO_PASSWORD ? '  (CHORUS_DEMO_PASSWORD)' : `  (generated for this data dir: ${join(dataDir, 'demo-password')})`}`,
    '',
    `  Emails 'sent':     ${rt.url}/_local/outbox  (sign-in codes, invitations; ${devEverywhere ? 'EVERY client' : 'this machine only'})`,
    `  Data:              ${dataDir}`,
    `  WhatsApp webhook:  ${rt.url}/webhooks/whatsapp`,
    `  Outbound webhooks: ${e.CHORUS_WEBHOOKS_ALLOW_LOOPBACK === '1' ? 'http://127.0.0.1 and http://localhost receivers allowed (this machine only)' : 'https only (CHORUS_WEBHOOKS_ALLOW_LOOPBACK=1 allows a receiver on this machine)'}`,
    `  WHATSAPP_APP_SECRET=${e.WHATSAPP_APP_SECRET === DEMO_DEFAULTS.appSecret ? `${e.WHATSAPP_APP_SECRET} (default)` : '(set)'}`,
    `  WHATSAPP_VERIFY_TOKEN=${e.WHATSAPP_VERIFY_TOKEN}`,
    `  WHATSAPP_ACCESS_TOKEN=${e.WHATSAPP_ACCESS_TOKEN === DEMO_DEFAULTS.accessToken ? `${e.WHATSAPP_ACCESS_TOKEN} (default)` : '(set)'}`,
    `  WHATSAPP_GRAPH_URL=${e.WHATSAPP_GRAPH_URL}${e.WHATSAPP_GRAPH_URL.includes('/__graph') ? '  (local stand-in: see what was sent at ' + rt.url + '/__graph)' : ''}`,
    `  WHATSAPP_PHONE_NUMBER_ID=${e.WHATSAPP_PHONE_NUMBER_ID}  WHATSAPP_DISPLAY_PHONE_NUMBER=${e.WHATSAPP_DISPLAY_PHONE_NUMBER}`,
    '',
    '  Simulate a customer message:  npm run simulate -- "Hello there"',
    '',
  ];
  const dead = [...rt.queues.values()].filter((q) => q.deadLettered > 0);
  if (dead.length) lines.push(`  Dead-lettered queue records: ${dead.map((q) => `${q.name} ${q.deadLettered}`).join(', ')} (files under ${dataDir}/queues/*-dlq)`, '');
  if (exposed || devEverywhere) lines.push(...warning.slice(1), '');
  console.log(lines.join('\n'));
  // once: npm and tsx both relay the terminal's signal, and a second stop would race the first's writes
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping Chorus...');
    await rt.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((e) => {
  if ((e as { code?: string }).code === 'EADDRINUSE') console.error(`Port ${process.env.PORT || 3000} is already in use. Start Chorus on another one: PORT=3001 npm start`);
  else console.error(e);
  process.exit(1);
});
