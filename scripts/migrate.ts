import { runMigrations, MIGRATIONS } from '../shared/db/migrations.ts';

/**
 * `npm run migrate`: run the table's pending one-off migrations (shared/db/migrations.ts) against
 * TABLE_NAME in the configured account (AWS_ENDPOINT_URL for LocalStack or DynamoDB Local).
 * `npm start` does this by itself at start.
 */
async function main(): Promise<void> {
  console.log(`${MIGRATIONS.length} migrations known; table ${process.env.TABLE_NAME ?? 'chorus'}`);
  const ran = await runMigrations({ log: (line) => process.stdout.write(`\r${line}`.padEnd(100)) });
  console.log(ran.length ? `\nran ${ran.join(', ')}` : 'nothing to do');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
