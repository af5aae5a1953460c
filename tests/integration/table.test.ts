import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoDb, ensureTable } from '../../scripts/local/dynamodb.ts';
import { TABLE_DEFINITION } from '../../shared/db/table-definition.ts';

/** The local table follows TABLE_DEFINITION, also when an older `.data/` table lacks a newer GSI. */
let ddb: Awaited<ReturnType<typeof startDynamoDb>>;
let client: DynamoDBClient;
beforeAll(async () => {
  ddb = await startDynamoDb(null, 'chorus');
  client = new DynamoDBClient({ endpoint: ddb.endpoint, region: 'local', credentials: { accessKeyId: 'l', secretAccessKey: 'l' } });
});
afterAll(async () => {
  client?.destroy();
  await ddb?.stop();
});

describe('the on-disk table', () => {
  it("is in SQLite's WAL mode (file format bytes 18-19 = 2: https://www.sqlite.org/fileformat.html)", async () => {
    const { mkdtemp, readFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'chorus-wal-'));
    const disk = await startDynamoDb(join(dir, 'dynamodb'), 'chorus');
    try {
      const header = await readFile(join(dir, 'dynamodb', 'shared-local-instance.db'));
      expect([header[18], header[19]]).toEqual([2, 2]);
    } finally {
      await disk.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ensureTable', () => {
  it('creates the table with its keys, GSIs and TTL', async () => {
    const t = (await client.send(new DescribeTableCommand({ TableName: 'chorus' }))).Table!;
    expect(t.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(t.GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(TABLE_DEFINITION.globalIndexes.map((g) => g.name));
  });

  it('adds a GSI that an existing table lacks', async () => {
    const older = { ...TABLE_DEFINITION, globalIndexes: [] };
    await ensureTable(client, 'older', older);
    expect((await client.send(new DescribeTableCommand({ TableName: 'older' }))).Table!.GlobalSecondaryIndexes ?? []).toHaveLength(0);
    await ensureTable(client, 'older');
    expect((await client.send(new DescribeTableCommand({ TableName: 'older' }))).Table!.GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(TABLE_DEFINITION.globalIndexes.map((g) => g.name));
  });
});
