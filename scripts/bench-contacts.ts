import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDb } from './local/dynamodb.ts';
import { REPO_ROOT } from './local/handlers.ts';
import { pct, rng } from './bench-lib.ts';

/**
 * Contacts benchmark (issue 15).
 *   npm run bench:contacts -- [--contacts 100000] [--runs 30] [--write 50000] [--fresh] [--memory] [--in-flight 4]
 * Seeds one org with N contacts into DynamoDB Local on disk under .data/bench-contacts (kept
 * between runs; --fresh reseeds; --memory keeps the table in memory, reseeded every run): names
 * from a word list, 8 labels, a tier property. The rows are the domain's own (shared/contact/
 * contact-rows.ts newContactRow + facetRowsOf, what the CSV import writes: contact row + facet rows
 * with the contact's copy), stored with BatchWrite (25 items a call, --in-flight calls at once,
 * unprocessed items retried), not through the use cases one by one. Then measures, through
 * `listContactBook` (the use case GET /contacts calls), the first page of 50 by name, by last seen,
 * a label filter and a word search, each against one raw 50-item Query on the same index in the
 * same run (p50 / p95 ms; target: within 2x). Finally writes `--write` new contacts (row + facet
 * rows, BatchWrite) as a CSV import writes them, and prints the time (the import job through the
 * API and queue: npm run bench:contact-import). Wall-clock ms on this machine.
 */
const { values } = parseArgs({ options: { contacts: { type: 'string', default: '100000' }, runs: { type: 'string', default: '30' }, write: { type: 'string', default: '50000' }, fresh: { type: 'boolean', default: false }, memory: { type: 'boolean', default: false }, 'in-flight': { type: 'string', default: '4' } } });
const N = Number(values.contacts);
const RUNS = Number(values.runs);
const WRITE = Number(values.write);
const IN_FLIGHT = Number(values['in-flight']);
const ORG = 'org_bench_contacts';
const FIRST = ['ana', 'ravi', 'grace', 'alan', 'ada', 'meera', 'bruna', 'li', 'omar', 'sofia', 'yuki', 'ivan', 'fatima', 'noah', 'emma', 'arjun'];
const LAST = ['souza', 'kumar', 'hopper', 'turing', 'lovelace', 'iyer', 'lima', 'wei', 'haddad', 'rossi', 'sato', 'petrov', 'khan', 'smith', 'brown', 'patel'];
const LABELS = Array.from({ length: 8 }, (_, i) => `lbl_bench${i}`);

async function main() {
  const dir = join(REPO_ROOT, '.data', 'bench-contacts');
  const marker = join(dir, `seeded-v3-${N}`);
  if (values.fresh || values.memory || !existsSync(marker)) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const table = 'chorus_bench_contacts';
  const dynamo = await startDynamoDb(values.memory ? null : dir, table);
  Object.assign(process.env, { TABLE_NAME: table, AWS_ENDPOINT_URL: dynamo.endpoint, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', LOG_LEVEL: 'warn' });
  const { db } = await import('../shared/db/service.ts');
  const { documentClient } = await import('../shared/db/client.ts');
  const { listContactBook } = await import('../shared/contact/contact.ts');
  const { facetRowsOf, newContactRow } = await import('../shared/contact/contact-rows.ts');
  const { putAllRetrying } = await import('../shared/db/batch-put.ts');
  const actor = { email: 'admin@bench.chorus', user_id: 'bench', org_id: ORG, role: 'admin' as const };
  const r = rng(11);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const now = Date.now();
  type Row = ReturnType<typeof newContactRow>;
  type FacetRow = ReturnType<typeof facetRowsOf>[number];

  /** Contact rows and their facet rows, built by the domain's own builders (contact-rows.ts, as the import writes them). */
  const build = (from: number, count: number, prefix: string) => {
    const rows: Row[] = [];
    const facets: FacetRow[] = [];
    for (let i = from; i < from + count; i++) {
      const id = `${prefix}${String(i).padStart(8, '0')}`;
      const c = newContactRow({
        org_id: ORG,
        contact_id: id,
        contact_name: `${pick(FIRST)} ${pick(LAST)}`,
        label_ids: r() < 0.3 ? [pick(LABELS)] : [],
        phone_ids: ['ph_bench'],
        custom_properties: r() < 0.5 ? { prp_tier: pick(['gold', 'silver', 'bronze']) } : {},
        last_seen_at: now - Math.floor(r() * 180 * 86_400_000),
        created_at: now - Math.floor(r() * 365 * 86_400_000),
        source: 'bench',
      });
      rows.push(c);
      facets.push(...facetRowsOf(c));
    }
    return { rows, facets };
  };
  /** BatchWrite (25 a call), `IN_FLIGHT` calls at once, unprocessed items retried (shared/db/batch-put.ts). */
  const write = async (rows: Row[], facets: FacetRow[]) => {
    const slices = <T>(xs: T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));
    const run = async <T>(parts: T[][], put: (p: T[]) => Promise<void>) => {
      const queue = [...parts];
      await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
        for (let p = queue.shift(); p; p = queue.shift()) await put(p);
      }));
    };
    await run(slices(rows, 500), (p) => putAllRetrying(db().entities.contact as never, p, (x) => String((x as { contact_id: string }).contact_id), 'contacts'));
    await run(slices(facets, 500), (p) => putAllRetrying(db().entities.contactFacet as never, p, (x) => `${String((x as { facet: string }).facet)}|${String((x as { key: string }).key)}`, 'facet rows'));
  };

  try {
    if (!existsSync(marker)) {
      const t0 = performance.now();
      let facetCount = 0;
      for (let i = 0; i < N; i += 10_000) {
        const b = build(i, Math.min(10_000, N - i), '1555');
        facetCount += b.facets.length;
        await write(b.rows, b.facets);
        process.stdout.write(`\rseeding: ${Math.min(N, i + 10_000)} contacts, ${facetCount} facet rows, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
      if (!values.memory) await writeFile(marker, '');
      console.log(`\nseeded ${N} contacts and ${facetCount} facet rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } else console.log(`reusing ${N} seeded contacts in ${dir} (--fresh to reseed)`);

    const e = db().entities;
    const cases: Array<[string, Record<string, unknown>, () => { params: () => unknown }]> = [
      ['by name (A-Z)', { sort: 'name' }, () => ({ params: () => e.contact.query.byName({ org_id: ORG }).params() })],
      ['by last seen', { sort: 'last_seen' }, () => ({ params: () => e.contact.query.byLastSeen({ org_id: ORG }).params() })],
      ['label filter', { label_id: LABELS[2] }, () => ({ params: () => e.contactFacet.query.byFacet({ org_id: ORG, facet: `label#${LABELS[2]}` }).params() })],
      ['search "ravi"', { q: 'ravi' }, () => ({ params: () => e.contactFacet.query.byFacet({ org_id: ORG, facet: 'tok' }).begins({ key: 'ravi' }).params() })],
      ['search "ravi ku"', { q: 'ravi ku' }, () => ({ params: () => e.contactFacet.query.byFacet({ org_id: ORG, facet: 'tok' }).begins({ key: 'ravi' }).params() })],
      ['search number "155500012"', { q: '155500012' }, () => ({ params: () => e.contact.query.byOrg({ org_id: ORG }).begins({ contact_id: '155500012' }).params() })],
    ];
    const fmt = (x: number) => x.toFixed(1).padStart(7);
    console.log(`\n${N} contacts, first page of 50, ${RUNS} runs each (p50 / p95 ms)\n`);
    console.log(`${'case'.padEnd(28)} ${'list p50'.padStart(8)} ${'p95'.padStart(7)} ${'raw p50'.padStart(8)} ${'p95'.padStart(7)}  ratio  got`);
    for (const [name, q, raw] of cases) {
      const rawParams = { ...(raw().params() as object), Limit: 50 };
      const list: number[] = [];
      const rawT: number[] = [];
      let got = 0;
      await listContactBook(actor, { ...q, limit: 50 } as never);
      await documentClient().send(new QueryCommand(rawParams as never));
      for (let i = 0; i < RUNS; i++) {
        let s = performance.now();
        const res = await listContactBook(actor, { ...q, limit: 50 } as never);
        list.push(performance.now() - s);
        got = res.contacts.length;
        s = performance.now();
        await documentClient().send(new QueryCommand(rawParams as never));
        rawT.push(performance.now() - s);
      }
      console.log(`${name.padEnd(28)} ${fmt(pct(list, 50))} ${fmt(pct(list, 95))} ${fmt(pct(rawT, 50))} ${fmt(pct(rawT, 95))}  ${(pct(list, 50) / pct(rawT, 50)).toFixed(2).padStart(5)}  ${got}`);
    }
    console.log('ratio = list p50 / raw 50-item Query p50 on the same index (target <= 2.00)');

    if (WRITE > 0) {
      const b = build(0, WRITE, '1777');
      const t0 = performance.now();
      await write(b.rows, b.facets);
      const secs = (performance.now() - t0) / 1000;
      console.log(`\nwrite of ${WRITE} new contacts (${b.facets.length} facet rows) as an import would: ${secs.toFixed(1)} s = ${(WRITE / secs).toFixed(0)} contacts/s`);
      // leave the seeded set as it was for the next run
      for (let i = 0; i < b.rows.length; i += 2500) await db().entities.contact.delete(b.rows.slice(i, i + 2500).map((x) => ({ org_id: ORG, contact_id: x.contact_id as string }))).go({ concurrency: 8 });
      for (let i = 0; i < b.facets.length; i += 2500) await db().entities.contactFacet.delete(b.facets.slice(i, i + 2500).map((x) => ({ org_id: ORG, facet: x.facet as string, key: x.key as string }))).go({ concurrency: 8 });
    }
  } finally {
    await dynamo.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
