import { join, resolve } from 'node:path';
import { buildWebIfStale } from './build-web.ts';
import { startRuntime, DEMO_DEFAULTS } from './runtime.ts';
import { REPO_ROOT } from './handlers.ts';
import { isLoopbackHost } from './gateway.ts';

/**
 * `npm start`: the embedded default. Builds the web app when its sources are newer than the
 * bundle, starts every local stand-in, seeds the demo workspace on first start and prints how to
 * use it. Settings: PORT (3000), HOST (127.0.0.1: this machine only), CHORUS_DEV_ROUTES (1 = the
 * development routes for every client, not only this machine), CHORUS_DATA_DIR (.data),
 * CHORUS_DEMO_ADMIN_EMAIL, CHORUS_DEMO_MEMBER_EMAIL, CHORUS_DEMO_PASSWORD (default: generated once
 * per data dir, in `<data dir>/demo-password`), WHATSAPP_* (see README).
 */
async function main() {
  buildWebIfStale();
  const port = Number(process.env.PORT || 3000);
  const dataDir = resolve(process.env.CHORUS_DATA_DIR || join(REPO_ROOT, '.data'));
  const rt = await startRuntime({ dataDir, port });
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
  const shutdown = async () => {
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
