import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDb } from './local/dynamodb.ts';
import { REPO_ROOT } from './local/handlers.ts';
import { pct, rng } from './bench-lib.ts';

/**
 * Tickets list benchmark (tickets issue, Performance).
 *   npm run bench:tickets -- [--tickets 50000] [--runs 30] [--fresh]
 * Seeds one org with N tickets (statuses, priorities, 10 assignees + unassigned, 3 numbers,
 * 6 labels, due dates over a year) into DynamoDB Local on disk under .data/bench-tickets
 * (kept between runs; --fresh reseeds), then for each filter and sort measures the first page of
 * 50 through `listTickets` (the use case the API calls) against one raw Query of 50 items on the
 * same index issued with the SDK in the same run (for subject search: the embedded search index,
 * rebuilt from the table on first run, plus a BatchGet of the hits). Prints p50/p95 of each and the ratio of p50s
 * (target: within 2x). Figures are wall-clock ms on this machine.
 */
const { values } = parseArgs({ options: { tickets: { type: 'string', default: '50000' }, runs: { type: 'string', default: '30' }, fresh: { type: 'boolean', default: false } } });
const N = Number(values.tickets);
const RUNS = Number(values.runs);
const ORG = 'org_bench_tickets';
const MEMBERS = Array.from({ length: 10 }, (_, i) => `agent${i}@bench.chorus`);
const PHONES = ['100000001', '100000002', '100000003'];
const LABELS = Array.from({ length: 6 }, (_, i) => `tl_bench${i}`);
const WORDS = ['refund', 'invoice', 'delivery', 'login', 'broken', 'upgrade', 'cancel', 'address', 'payment', 'warranty'];

async function main() {
  const dir = join(REPO_ROOT, '.data', 'bench-tickets');
  const marker = join(dir, `seeded-v2-${N}`);
  if (values.fresh || !existsSync(marker)) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const table = 'chorus_bench_tickets';
  const dynamo = await startDynamoDb(dir, table);
  Object.assign(process.env, { TABLE_NAME: table, AWS_ENDPOINT_URL: dynamo.endpoint, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', LOG_LEVEL: 'warn' });
  const { db } = await import('../shared/db/service.ts');
  const { documentClient } = await import('../shared/db/client.ts');
  const { listTickets } = await import('../shared/ticket/ticket-list.ts');
  const { ListTicketsQuery } = await import('../shared/ticket/ticket.schemas.ts');
  try {
    if (!existsSync(marker)) {
      const r = rng(42);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
      const start = Date.UTC(2026, 0, 1);
      const t0 = performance.now();
      const tickets = [];
      const links = [];
      for (let i = 0; i < N; i++) {
        const created = start + Math.floor((i / N) * 300 * 86_400_000);
        const status = pick(['open', 'open', 'inprogress', 'closed', 'closed', 'closed'] as const);
        const assignee = r() < 0.15 ? undefined : pick(MEMBERS);
        const due = r() < 0.4 ? undefined : created + Math.floor(r() * 60) * 86_400_000;
        const labels = LABELS.filter(() => r() < 0.12);
        const subject = `${pick(WORDS)} ${pick(WORDS)} case ${i}`;
        const ticket_id = `tkt_${ulid(created)}`;
        tickets.push({
          org_id: ORG,
          ticket_id,
          subject,
          status,
          priority: pick([1, 1, 2, 2, 3]),
          assignee,
          assignee_key: assignee ?? 'none',
          chat_id: `1555${String(i % 2000).padStart(7, '0')}@c.us`,
          org_phone: `1555000000${PHONES.indexOf(pick(PHONES))}`,
          phone_id: pick(PHONES),
          quoted_message_id: ulid(created),
          due_date: due,
          due_key: due == null ? 'none' : String(due).padStart(15, '0'),
          labels,
          message_count: 1,
          created_by: pick(MEMBERS),
          created_at: created,
          last_updated_by: pick(MEMBERS),
          last_updated_at: created + Math.floor(r() * 10 * 86_400_000),
          closed_at: status === 'closed' ? created + 86_400_000 : undefined,
          version: 1,
        });
        for (const label_id of labels) links.push({ org_id: ORG, label_id, ticket_id, ticket: tickets[tickets.length - 1] });
      }
      for (let i = 0; i < tickets.length; i += 2500) {
        await db().entities.ticket.put(tickets.slice(i, i + 2500)).go({ concurrency: 8 });
        process.stdout.write(`\rseeding tickets ${Math.min(i + 2500, N)}/${N}`);
      }
      for (let i = 0; i < links.length; i += 2500) await db().entities.ticketLabelLink.put(links.slice(i, i + 2500)).go({ concurrency: 8 });
      await import('node:fs/promises').then((fs) => fs.writeFile(marker, new Date().toISOString()));
      console.log(`\nseeded ${N} tickets and ${links.length} label rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } else console.log(`reusing ${N} seeded tickets in ${dir} (--fresh to reseed)`);

    // the embedded search index (as in `npm start`), rebuilt from the table when missing
    const { startLocalSearch } = await import('./local/search.ts');
    const { setSearchPort } = await import('../shared/ports/search.ts');
    const { allTicketSearchDocs } = await import('../shared/ticket/ticket-search.ts');
    const ti = performance.now();
    const search = await startLocalSearch(dir, async (i) => (i === 'tickets' ? allTicketSearchDocs() : []));
    setSearchPort(search);
    console.log(`search index ready in ${((performance.now() - ti) / 1000).toFixed(1)} s`);

    const actor = { email: MEMBERS[3]!, user_id: 'bench', org_id: ORG, role: 'admin' as const };
    const t = db().entities.ticket;
    const due0 = Date.UTC(2026, 5, 1);
    const due1 = Date.UTC(2026, 5, 30);
    // each case: the list query and the raw Query of the index it should be served by
    const cases: Array<[string, Record<string, string>, { params: () => object }]> = [
      ['no filter (newest first)', {}, t.query.byId({ org_id: ORG })],
      ['status=open', { status: 'open' }, t.query.byStatus({ org_id: ORG, status: 'open' })],
      ['status=closed', { status: 'closed' }, t.query.byStatus({ org_id: ORG, status: 'closed' })],
      ['priority=3', { priority: '3' }, t.query.byPriority({ org_id: ORG, priority: 3 })],
      ['assignee=me', { assignee: 'me' }, t.query.byAssignee({ org_id: ORG, assignee_key: MEMBERS[3]! })],
      ['assignee=none', { assignee: 'none' }, t.query.byAssignee({ org_id: ORG, assignee_key: 'none' })],
      ['label', { label: LABELS[2]! }, db().entities.ticketLabelLink.query.byLabel({ org_id: ORG, label_id: LABELS[2]! })],
      ['phone', { phone_id: PHONES[1]! }, t.query.byPhone({ org_id: ORG, phone_id: PHONES[1]! })],
      ['due range (June)', { due_from: String(due0), due_to: String(due1) }, t.query.byDue({ org_id: ORG }).between({ due_key: String(due0).padStart(15, '0') }, { due_key: `${String(due1).padStart(15, '0')}~` })],
      ['sort due_asc', { sort: 'due_asc' }, t.query.byDue({ org_id: ORG })],
      ['sort priority_desc', { sort: 'priority_desc' }, t.query.byPriority({ org_id: ORG, priority: 3 })],
      ['sort updated_desc', { sort: 'updated_desc' }, t.query.byUpdated({ org_id: ORG })],
      ['status=open & assignee=me', { status: 'open', assignee: 'me' }, t.query.byAssignee({ org_id: ORG, assignee_key: MEMBERS[3]! })],
      ['search q=refund', { q: 'refund' }, t.query.byId({ org_id: ORG })],
      ['search q=case 4242 (rare)', { q: 'case 4242' }, t.query.byId({ org_id: ORG })],
      ['search q=refund & status=open', { q: 'refund', status: 'open' }, t.query.byId({ org_id: ORG })],
    ];
    const rows: string[] = [];
    const fmt = (x: number) => x.toFixed(1).padStart(7);
    console.log(`\n${N} tickets, first page of 50, ${RUNS} runs each (p50 / p95 ms)\n`);
    console.log(`${'filter'.padEnd(30)} ${'list p50'.padStart(8)} ${'p95'.padStart(7)} ${'raw p50'.padStart(8)} ${'p95'.padStart(7)}  ratio  got`);
    for (const [name, qs, raw] of cases) {
      const query = ListTicketsQuery.parse({ ...qs, limit: '50' });
      const rawParams = { ...(raw.params() as object), Limit: 50 };
      const list: number[] = [];
      const rawT: number[] = [];
      let got = 0;
      let more = false;
      // warm up both paths once, then alternate so both see the same machine state
      await listTickets(actor, query);
      await documentClient().send(new QueryCommand(rawParams as never));
      for (let i = 0; i < RUNS; i++) {
        let s = performance.now();
        const res = await listTickets(actor, query);
        list.push(performance.now() - s);
        got = res.tickets.length;
        more = !!res.cursor;
        s = performance.now();
        await documentClient().send(new QueryCommand(rawParams as never));
        rawT.push(performance.now() - s);
      }
      const ratio = pct(list, 50) / pct(rawT, 50);
      const line = `${name.padEnd(30)} ${fmt(pct(list, 50))} ${fmt(pct(list, 95))} ${fmt(pct(rawT, 50))} ${fmt(pct(rawT, 95))}  ${ratio.toFixed(2).padStart(5)}  ${got}${more ? '+' : ''}`;
      rows.push(line);
      console.log(line);
    }
    console.log('\nratio = list p50 / raw Query p50 (target <= 2.00); got = tickets on the first page, + = a cursor for more');
    console.log('search rows: the raw column is still one Query of 50 on the table; search = search port + BatchGet of the hits');
    await search.stop();
  } finally {
    await dynamo.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
