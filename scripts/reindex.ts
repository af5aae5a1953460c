import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { config } from '../shared/config.ts';
import { searchPort, setSearchPort } from '../shared/ports/search.ts';
import { reindexOrg } from '../shared/search/reindex.ts';

/**
 * Rebuild an org's search indexes from the table (issue 14):
 *   npm run reindex -- --org <org_id> [--data-dir .data]
 * Reads with key/index Queries only (shared/search/reindex.ts) against the table the environment
 * names (TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL for DynamoDB Local), like the handlers, and
 * writes to OpenSearch when SEARCH_ENDPOINT is set, else into the embedded index under
 * `<data-dir>/search` (run it while `npm start` is stopped: the runtime holds that index in
 * memory). Upserts are version-checked, so running it while events still arrive is safe.
 * Shows a progress bar over the org's chats.
 */
const { values } = parseArgs({ options: { org: { type: 'string' }, 'data-dir': { type: 'string', default: '.data' } } });

async function main() {
  if (!values.org) throw new Error('--org <org_id> is required');
  const started = Date.now();
  let stop = async () => undefined as void;
  if (!config().SEARCH_ENDPOINT) {
    const { startLocalSearch } = await import('./local/search.ts');
    const local = await startLocalSearch(values['data-dir']!, async () => []);
    setSearchPort(local);
    stop = () => local.stop();
  }
  const port = await searchPort();
  const bar = new cliProgress.SingleBar({ format: 'reindex {bar} {value}/{total} chats | {docs} documents | {duration_formatted}', hideCursor: true }, cliProgress.Presets.shades_classic);
  bar.start(1, 0, { docs: 0 });
  const docs = await reindexOrg(values.org, port, (p) => {
    bar.setTotal(Math.max(1, p.totalChats));
    bar.update(p.chats, { docs: p.docs });
  });
  bar.stop();
  await stop();
  console.log(`reindexed org ${values.org}: ${docs} document(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((e) => {
  console.error('reindex failed:', e);
  process.exit(1);
});
