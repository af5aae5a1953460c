import { join, resolve } from 'node:path';
import { buildWebIfStale } from './build-web.ts';
import { startRuntime, DEMO_DEFAULTS } from './runtime.ts';
import { REPO_ROOT } from './handlers.ts';

/**
 * `npm start`: the embedded default. Builds the web app when its sources are newer than the
 * bundle, starts every local stand-in, seeds the demo workspace on first start and prints how to
 * use it. Settings: PORT (3000), CHORUS_DATA_DIR (.data), CHORUS_DEMO_ADMIN_EMAIL,
 * CHORUS_DEMO_MEMBER_EMAIL, CHORUS_DEMO_PASSWORD, WHATSAPP_* (see README).
 */
async function main() {
  buildWebIfStale();
  const port = Number(process.env.PORT || 3000);
  const dataDir = resolve(process.env.CHORUS_DATA_DIR || join(REPO_ROOT, '.data'));
  const rt = await startRuntime({ dataDir, port });
  const e = rt.env;
  const lines = [
    '',
    `Chorus is running: ${rt.url}`,
    '',
    `  Sign in as admin:  ${process.env.CHORUS_DEMO_ADMIN_EMAIL || DEMO_DEFAULTS.adminEmail}`,
    `  Sign in as member: ${process.env.CHORUS_DEMO_MEMBER_EMAIL || DEMO_DEFAULTS.memberEmail}`,
    `  Password (both):   ${process.env.CHORUS_DEMO_PASSWORD || DEMO_DEFAULTS.password}`,
    '',
    `  Emails 'sent':     ${rt.url}/_local/outbox  (sign-in codes, invitations)`,
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
