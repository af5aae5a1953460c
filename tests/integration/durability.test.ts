import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRuntime, type Runtime } from '../../scripts/local/runtime.ts';
import { freePort } from '../../scripts/local/ports.ts';
import { signBody } from '../../shared/whatsapp/cloud/signature.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';

/**
 * Nothing answered 200 is lost: a webhook acknowledged while its consumer is not running is
 * stored after the local runtime restarts (table on disk, queue files under the data dir).
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('restart durability', () => {
  it('a webhook acknowledged before a crash is stored after restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'chorus-durable-'));
    dirs.push(dataDir);
    const demo = { adminEmail: 'a@durable.chorus', memberEmail: 'm@durable.chorus', password: 'Chorus-demo-2026' };
    let rt: Runtime = await startRuntime({ dataDir, port: await freePort(), demo, logLevel: 'silent' });
    const orgId = rt.orgId;
    rt.queues.get('whatsapp-inbound')!.pause();
    const raw = JSON.stringify(inboundText({ phone_number_id: rt.env.WHATSAPP_PHONE_NUMBER_ID, display_phone_number: rt.env.WHATSAPP_DISPLAY_PHONE_NUMBER }, '15557770001', 'survive the crash'));
    const res = await fetch(`http://127.0.0.1:${rt.port}/webhooks/whatsapp`, { method: 'POST', headers: { 'x-hub-signature-256': signBody(raw, rt.env.WHATSAPP_APP_SECRET) }, body: raw });
    expect(res.status).toBe(200);
    expect(await readdir(join(dataDir, 'queues', 'whatsapp-inbound'))).toHaveLength(1);
    await rt.stop();

    // a crash mid-write leaves cognito-local's pool file cut short: the restart restores the last clean copy
    const store = join(dataDir, 'cognito', '.cognito', 'db');
    const poolFile = join(store, (await readdir(store)).find((n) => n.startsWith('local_') && n.endsWith('.json'))!);
    const whole = await readFile(poolFile, 'utf8');
    await writeFile(poolFile, whole.slice(0, Math.floor(whole.length / 2)));

    rt = await startRuntime({ dataDir, port: await freePort(), demo, logLevel: 'silent' });
    try {
      expect(rt.orgId).toBe(orgId);
      await rt.idle();
      const chat = (await db().entities.chat.get({ org_id: orgId, chat_id: '15557770001@c.us' }).go()).data;
      expect(chat?.latest_message).toMatchObject({ body: 'survive the crash' });
      expect(await readdir(join(dataDir, 'queues', 'whatsapp-inbound'))).toHaveLength(0);
    } finally {
      await rt.stop();
    }
  });
});
