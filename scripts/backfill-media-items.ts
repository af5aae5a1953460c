import { parseArgs } from 'node:util';
import { backfillMediaItems } from '../shared/media/media-backfill.ts';
import { config } from '../shared/config.ts';

/**
 * MediaItem backfill (issue 5): writes the media library rows (ACCESS_PATTERNS.md 30-32) missing
 * for files stored before the library existed. Idempotent: a second run writes nothing.
 *   npm run backfill:media -- [--org <org_id>]... [--dry-run]
 * Runs against the table the environment names (TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL for
 * DynamoDB Local or LocalStack), like the handlers. Without --org every org is listed by a
 * paginated parallel Scan of Organization rows (no index lists orgs); chats and messages are read
 * with Queries. Prints one line per chat that has media, then the totals.
 */
const { values } = parseArgs({ options: { org: { type: 'string', multiple: true }, 'dry-run': { type: 'boolean', default: false } } });

async function main() {
  const started = Date.now();
  const dryRun = values['dry-run'];
  console.log(`backfill:media on table ${config().TABLE_NAME}${dryRun ? ' (dry run: nothing is written)' : ''}${values.org?.length ? `, orgs ${values.org.join(', ')}` : ', every org'}`);
  const totals = await backfillMediaItems({ orgIds: values.org, dryRun }, (p) => {
    if (p.media) console.log(`  ${p.org_id} ${p.chat_id}: ${p.media} stored file(s), ${p.written} row(s) ${dryRun ? 'missing' : 'written'}`);
  });
  console.log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${totals.orgs} org(s), ${totals.chats} chat(s), ${totals.media} stored file(s), ${totals.written} row(s) ${dryRun ? 'missing' : 'written'}`);
}

main().catch((e) => {
  console.error('backfill:media failed:', e);
  process.exit(1);
});
