import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { listOrgIds } from '../shared/media/media-backfill.ts';
import { rejectionOfOrg, rejectionsOfOrg, UNKNOWN_ORG } from '../shared/whatsapp/webhook-rejection.ts';
import type { WebhookRejection } from '../shared/whatsapp/webhook-rejection.schemas.ts';

/**
 * The webhook's dead letters for `npm run dlq -- rejections | rejection <id>`: signed WhatsApp
 * Cloud API bodies (or updates inside them) that no schema accepted, answered 200 and kept 90 days
 * with their reason (shared/inbox/ingest.ts keepRejection). They live in the table, not in a queue,
 * so there is nothing to redrive: the list says why, and the raw body shows what Meta sent.
 *
 * Reads the table the environment names (TABLE_NAME, AWS_REGION, AWS_ENDPOINT_URL(_DYNAMODB)), like
 * the handlers; `openDataDirTable` points that at a data dir's DynamoDB Local first.
 */

/** A kept rejection and the org it was kept under (UNKNOWN_ORG when none could be matched). */
export interface KeptRejection extends WebhookRejection {
  org_id: string;
}

/** Orgs read at once while listing every org's rejections. */
const ORG_CONCURRENCY = 8;

/** The orgs to read: the ones given, else every org (a Scan for their ids) and UNKNOWN_ORG. */
async function orgsOf(orgIds?: string[]): Promise<string[]> {
  return orgIds?.length ? orgIds : [UNKNOWN_ORG, ...(await listOrgIds())];
}

/**
 * The newest kept rejections, newest first, bodies cut to previews (`truncated`).
 * @param opts.orgIds the orgs to read (`unknown` for the ones no org could be matched to); default every org and `unknown`
 * @param opts.limit at most this many (default 50)
 */
export async function listKeptRejections(opts: { orgIds?: string[]; limit?: number } = {}): Promise<KeptRejection[]> {
  const limit = opts.limit ?? 50;
  const orgs = await orgsOf(opts.orgIds);
  const out: KeptRejection[] = [];
  for (let i = 0; i < orgs.length; i += ORG_CONCURRENCY) {
    const pages = await Promise.all(orgs.slice(i, i + ORG_CONCURRENCY).map(async (org_id) => (await rejectionsOfOrg(org_id, { limit })).rejections.map((r) => ({ ...r, org_id }))));
    out.push(...pages.flat());
  }
  return out.sort((a, b) => b.received_at - a.received_at || (a.rejection_id < b.rejection_id ? 1 : -1)).slice(0, limit);
}

/**
 * One kept rejection with its whole body, by id.
 * @param opts.orgIds where to look; default every org and `unknown`
 */
export async function findKeptRejection(rejectionId: string, opts: { orgIds?: string[] } = {}): Promise<KeptRejection | undefined> {
  for (const org_id of await orgsOf(opts.orgIds)) {
    const r = await rejectionOfOrg(org_id, rejectionId);
    if (r) return { ...r, org_id };
  }
  return undefined;
}

const fmtTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
const fmtSize = (n: number) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`);

/** The list as `npm run dlq -- rejections` prints it: one line each (time, org, id, size, reason), then a count. */
export function formatRejectionList(rows: KeptRejection[]): string {
  if (!rows.length) return 'No kept webhook rejections.';
  const lines = rows.map((r) => `${fmtTime(r.received_at)}\t${r.org_id}\t${r.rejection_id}\t${fmtSize(r.size_bytes)}\t${r.reason}`);
  return `${lines.join('\n')}\n\n${rows.length} kept webhook rejection(s), newest first. One with its raw body: npm run dlq -- rejection <id>`;
}

/** One rejection as `npm run dlq -- rejection <id>` prints it: its fields, then the raw body (JSON indented). */
export function formatRejection(r: KeptRejection): string {
  let body = r.raw_body;
  try {
    body = JSON.stringify(JSON.parse(r.raw_body), null, 2);
  } catch {
    // not JSON (that may be why it was rejected): as it is
  }
  return `id:         ${r.rejection_id}\norg:        ${r.org_id}\nsource:     ${r.source}\nkept:       ${fmtTime(r.received_at)}\nsize:       ${fmtSize(r.size_bytes)}\nreason:     ${r.reason}\nraw body:\n${body}`;
}

/**
 * Point this process's table at a data dir's DynamoDB Local (`<dataDir>/dynamodb`), started here
 * for the command and stopped by the returned function: reads only, so it may run beside `npm
 * start` (DynamoDB Local keeps its table in one SQLite file, which both open). Does nothing when
 * the environment already names a DynamoDB endpoint.
 * @throws Error when the data dir has no table
 */
export async function openDataDirTable(dataDir: string): Promise<() => Promise<void>> {
  if (process.env.AWS_ENDPOINT_URL_DYNAMODB || process.env.AWS_ENDPOINT_URL) return async () => undefined;
  const dir = join(dataDir, 'dynamodb');
  if (!existsSync(dir)) throw new Error(`No local table under ${dir} (start Chorus once with npm start, or set CHORUS_DATA_DIR)`);
  // journal mode is the running Chorus's business: no PRAGMA from this reader
  process.env.CHORUS_DYNAMODB_WAL = 'off';
  const { startDynamoDb } = await import('./local/dynamodb.ts');
  const ddb = await startDynamoDb(dir, process.env.TABLE_NAME || 'chorus');
  Object.assign(process.env, {
    TABLE_NAME: process.env.TABLE_NAME || 'chorus',
    AWS_ENDPOINT_URL_DYNAMODB: ddb.endpoint,
    AWS_REGION: process.env.AWS_REGION || 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  return () => ddb.stop();
}
