import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { startDynamoDb } from './local/dynamodb.ts';
import { REPO_ROOT } from './local/handlers.ts';

/**
 * Identity migration benchmark (issue 41).
 *   npm run bench:migrate -- [--chats 100000] [--fresh]
 * Seeds one org with N chats (85% 1:1 `<digits>@c.us`, 15% groups) into DynamoDB Local on disk
 * under .data/bench-migrate (kept between runs; --fresh reseeds), then runs the migration
 * `2026-11-29-customer-phone-ids` twice, as `npm run migrate` would on a table that has not recorded
 * it: the first run creates one phone lookup row per 1:1 chat, the second must create none.
 * Prints each run's wall-clock time (ms, this machine) and counts, and checks a sample of rows.
 */
const { values } = parseArgs({ options: { chats: { type: 'string', default: '100000' }, fresh: { type: 'boolean', default: false } } });
const N = Number(values.chats);
const ORG = 'org_bench_migrate';

async function main() {
  const dir = join(REPO_ROOT, '.data', 'bench-migrate');
  const marker = join(dir, `seeded-${N}`);
  if (values.fresh || !existsSync(marker)) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const table = 'chorus_bench_migrate';
  const dynamo = await startDynamoDb(dir, table);
  Object.assign(process.env, { TABLE_NAME: table, AWS_ENDPOINT_URL: dynamo.endpoint, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', LOG_LEVEL: 'warn' });
  const { db } = await import('../shared/db/service.ts');
  const { MIGRATIONS } = await import('../shared/db/migrations.ts');
  const { withIndexKeys } = await import('../shared/chat/chat-write.ts');
  try {
    if (!existsSync(marker)) {
      const t0 = performance.now();
      const now = Date.now();
      for (let i = 0; i < N; i += 2500) {
        const rows: unknown[] = [];
        for (let k = i; k < Math.min(i + 2500, N); k++) {
          const group = k % 7 === 0;
          const ts = now - (N - k) * 60_000;
          rows.push(
            withIndexKeys(
              {
                org_id: ORG,
                chat_id: group ? `1203630${String(k).padStart(8, '0')}@g.us` : `1555${String(k).padStart(7, '0')}@c.us`,
                chat_type: group ? 'group' : 'user',
                chat_name: `Customer ${k}`,
                org_phone: '15550000001',
                phone_id: 'pid_1',
                chat_org_phones: ['15550000001'],
                latest_message: { unique_id: ulid(ts), body: `message ${k}`, message_type: 'text', from_me: false, ack: 0, timestamp: ts },
                latest_message_timestamp: ts,
                unread_count: {},
                message_unread_count: 0,
                version: 1,
              } as never,
              now,
            ),
          );
        }
        await db().entities.chat.put(rows as never).go({ concurrency: 8 } as never);
        process.stdout.write(`\rseeding chats ${Math.min(i + 2500, N)}/${N}`);
      }
      await writeFile(marker, new Date().toISOString());
      console.log(`\nseeded ${N} chats in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } else console.log(`reusing ${N} seeded chats in ${dir} (--fresh to reseed)`);

    const m = MIGRATIONS.find((x) => x.id === '2026-11-29-customer-phone-ids')!;
    for (const run of [1, 2]) {
      const t0 = performance.now();
      const created = await m.run((k) => process.stdout.write(`\rrun ${run}: ${k} chats read`));
      console.log(`\nrun ${run}: ${created} phone rows created in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const sample = await db().entities.customerId.get({ org_id: ORG, id_key: 'phone#15550000001' }).go();
    console.log(`sample row phone#15550000001 -> ${sample.data?.chat_id ?? 'missing'}`);
  } finally {
    await dynamo.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
