import { parseArgs } from 'node:util';
import { daysBetween, MAX_RANGE_DAYS } from '../shared/analytics/analytics.rules.ts';
import { rebuildAnalytics } from '../shared/analytics/rebuild.ts';

/**
 * `npm run analytics:rebuild -- --org <org_id> --from YYYY-MM-DD --to YYYY-MM-DD` (issue 19):
 * recompute an org's daily analytics rows for a range of UTC days from the table (key and index
 * Queries only: shared/analytics/rebuild.ts), printing progress. Uses the table of the usual
 * settings (TABLE_NAME, AWS_ENDPOINT_URL: e.g. the local runtime's DynamoDB Local while `npm start` runs).
 */
const { values } = parseArgs({ options: { org: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } });

async function main() {
  const { org, from, to } = values;
  if (!org || !from || !to) throw new Error('usage: npm run analytics:rebuild -- --org <org_id> --from YYYY-MM-DD --to YYYY-MM-DD');
  const days = daysBetween(from, to).length;
  if (!days || days > MAX_RANGE_DAYS) throw new Error(`--from must not be after --to, and the range is at most ${MAX_RANGE_DAYS} days`);
  const started = Date.now();
  const p = await rebuildAnalytics(org, from, to, (x) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${x.phase}: ${x.chats} chats, ${x.messages} messages, ${x.tickets} tickets${x.rows ? `, ${x.rows} rows written` : ''}`));
  console.log(`rebuilt ${org} ${from}..${to}: ${p.rows} daily rows from ${p.chats} chats and ${p.messages} messages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

main().catch((e) => {
  console.error('analytics:rebuild failed:', e);
  process.exit(1);
});
