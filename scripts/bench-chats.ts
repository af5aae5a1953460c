import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDb } from './local/dynamodb.ts';
import { REPO_ROOT } from './local/handlers.ts';
import { pct, rng } from './bench-lib.ts';

/**
 * Chat list benchmark (issue 4, Performance).
 *   npm run bench:chats -- [--chats 100000] [--runs 30] [--fresh]
 * Seeds one org with N chats into DynamoDB Local on disk under .data/bench-chats (kept between
 * runs; --fresh reseeds): 12 assignees + unassigned, 8 labels, 3 numbers, users and groups, about
 * 20% unread, 35% closed, 4% snoozed, 6% archived, rows, label rows and filter counters exactly as
 * the write path builds them (withIndexKeys, chatBuckets), plus 3 pinned chats of the measuring
 * member. Then for each filter it measures the first page of 50 through `listChats` (the use case
 * GET /chats calls: the member's states Query beside the index Query, views) against one raw
 * 50-item Query on the index the combined filter uses (the group rows' for Mine + Group; for a
 * filter checked on another index's pages, that index) with the SDK in the same run, and GET
 * /chats/counts. Group rows (ChatGroupLink) are added by their migration on first use. Prints
 * p50/p95 and the ratio of p50s (target: every filter within 2x). Wall-clock ms on this machine.
 */
const { values } = parseArgs({ options: { chats: { type: 'string', default: '100000' }, runs: { type: 'string', default: '30' }, fresh: { type: 'boolean', default: false } } });
const N = Number(values.chats);
const RUNS = Number(values.runs);
const ORG = 'org_bench_chats';
const MEMBERS = Array.from({ length: 12 }, (_, i) => `agent${i}@bench.chorus`);
const PHONES = ['15550000001', '15550000002', '15550000003'];
const LABELS = Array.from({ length: 8 }, (_, i) => `lbl_bench${i}`);

async function main() {
  const dir = join(REPO_ROOT, '.data', 'bench-chats');
  const marker = join(dir, `seeded-v2-${N}`); // v2: group chat rows carry the sparse gsi8 keys
  if (values.fresh || !existsSync(marker)) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const table = 'chorus_bench_chats';
  const dynamo = await startDynamoDb(dir, table);
  Object.assign(process.env, { TABLE_NAME: table, AWS_ENDPOINT_URL: dynamo.endpoint, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', LOG_LEVEL: 'warn' });
  const { db } = await import('../shared/db/service.ts');
  const { documentClient } = await import('../shared/db/client.ts');
  const { listChats, listPinnedChats, chatCounts } = await import('../shared/chat/chat-list.ts');
  const { ListChatsQuery } = await import('../shared/chat/chat.schemas.ts');
  const { withIndexKeys } = await import('../shared/chat/chat-write.ts');
  const { chatBuckets, mergeDeltas, bucketDeltas } = await import('../shared/chat/chat-state.rules.ts');
  const { toChatWire } = await import('../shared/inbox/wire.ts');
  const me = MEMBERS[3]!;
  try {
    if (!existsSync(marker)) {
      const r = rng(7);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
      const now = Date.now();
      const t0 = performance.now();
      const chats = [];
      const links = [];
      const counters: Record<string, number> = {};
      for (let i = 0; i < N; i++) {
        const ts = now - Math.floor(((N - i) / N) * 180 * 86_400_000);
        const x = r();
        const chat_type = r() < 0.15 ? ('group' as const) : ('user' as const);
        const chat_id = chat_type === 'user' ? `1555${String(i).padStart(7, '0')}@c.us` : `1203630${String(i).padStart(8, '0')}@g.us`;
        const unread = r() < 0.2 ? 1 + Math.floor(r() * 5) : 0;
        const org_phone = pick(PHONES);
        const row = withIndexKeys(
          {
            org_id: ORG,
            chat_id,
            chat_type,
            chat_name: `Customer ${i}`,
            org_phone,
            phone_id: `pid_${org_phone}`,
            chat_org_phones: [org_phone],
            latest_message: { unique_id: ulid(ts), body: `message ${i}`, message_type: 'text', from_me: r() < 0.5, ack: 3, timestamp: ts },
            latest_message_timestamp: ts,
            unread_count: { [org_phone]: unread },
            message_unread_count: unread,
            label_ids: LABELS.filter(() => r() < 0.08),
            assigned_to: r() < 0.3 ? undefined : pick(MEMBERS),
            closed_at: x < 0.35 ? ts + 60_000 : undefined,
            snooze_metadata: x >= 0.35 && x < 0.39 ? { snooze_until: now + Math.floor(r() * 7 * 86_400_000) + 3_600_000 } : undefined,
            is_archived: x >= 0.39 && x < 0.45,
            is_muted: r() < 0.05,
            version: 1,
          } as never,
          now,
        ) as Record<string, unknown> & { label_ids: string[]; inbox_state: string };
        chats.push(row);
        mergeDeltas(counters, bucketDeltas(null, chatBuckets(row as never, row.inbox_state as never)));
        for (const label_id of row.label_ids) links.push({ org_id: ORG, label_id, inbox_state: row.inbox_state, latest_message_timestamp: ts, chat_id, assignee_key: row.assignee_key as string, unread_key: row.unread_key as string, chat: toChatWire(row) });
      }
      for (let i = 0; i < chats.length; i += 2500) {
        await db().entities.chat.put(chats.slice(i, i + 2500) as never).go({ concurrency: 8 } as never);
        process.stdout.write(`\rseeding chats ${Math.min(i + 2500, N)}/${N}`);
      }
      for (let i = 0; i < links.length; i += 2500) await db().entities.chatLabelLink.put(links.slice(i, i + 2500)).go({ concurrency: 8 });
      await db()
        .entities.chatCounter.put(Object.entries(counters).map(([bucket, n]) => ({ org_id: ORG, bucket, n })))
        .go();
      const open = chats.filter((c) => c.inbox_state === 'open').slice(-200);
      for (const c of open.slice(0, 3)) await db().entities.memberChatState.put({ org_id: ORG, email: me, chat_id: c.chat_id as string, pinned_at: now }).go();
      await writeFile(marker, new Date().toISOString());
      console.log(`\nseeded ${N} chats, ${links.length} label rows, ${Object.keys(counters).length} counters in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } else console.log(`reusing ${N} seeded chats in ${dir} (--fresh to reseed)`);
    // group rows (ChatGroupLink) come from their migration, as in a table seeded before they existed
    const groupRows = join(dir, `group-links-${N}`);
    if (!existsSync(groupRows)) {
      const { MIGRATIONS } = await import('../shared/db/migrations.ts');
      const t0 = performance.now();
      const n = await MIGRATIONS.find((m) => m.id === '2026-11-27-chat-group-link-rows')!.run((k) => process.stdout.write(`\rgroup rows ${k}`));
      await writeFile(groupRows, new Date().toISOString());
      console.log(`\nmigration 2026-11-27-chat-group-link-rows: ${n} group rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }

    const actor = { email: me, user_id: 'bench', org_id: ORG, role: 'member' as const };
    const c = db().entities.chat;
    const g = db().entities.chatGroupLink;
    const cases: Array<[string, Record<string, string>, { params: () => object }]> = [
      ['All (open)', {}, c.query.byState({ org_id: ORG, inbox_state: 'open' })],
      ['Unread', { unread: 'true' }, c.query.byUnread({ org_id: ORG, inbox_state: 'open', unread_key: 'unread' })],
      ['Mine', { assignee: 'me' }, c.query.byAssignee({ org_id: ORG, inbox_state: 'open', assignee_key: me })],
      ['Unassigned', { assignee: 'none' }, c.query.byAssignee({ org_id: ORG, inbox_state: 'open', assignee_key: 'none' })],
      ['Snoozed', { state: 'snoozed' }, c.query.byState({ org_id: ORG, inbox_state: 'snoozed' })],
      ['Closed', { state: 'closed' }, c.query.byState({ org_id: ORG, inbox_state: 'closed' })],
      ['Archived', { state: 'archived' }, c.query.byState({ org_id: ORG, inbox_state: 'archived' })],
      ['Label', { label_id: LABELS[2]! }, db().entities.chatLabelLink.query.byLabel({ org_id: ORG, label_id: LABELS[2]!, inbox_state: 'open' })],
      ['Phone', { phone: PHONES[1]! }, c.query.byPhone({ org_id: ORG, inbox_state: 'open', org_phone: PHONES[1]! })],
      ['Type group', { type: 'group' }, c.query.byType({ org_id: ORG, inbox_state: 'open', chat_type: 'group' })],
      ['Mine + Unread (combined)', { assignee: 'me', unread: 'true' }, c.query.byAssignee({ org_id: ORG, inbox_state: 'open', assignee_key: me })],
      ['Unassigned + Unread (combined)', { assignee: 'none', unread: 'true' }, c.query.byAssignee({ org_id: ORG, inbox_state: 'open', assignee_key: 'none' })],
      ['Label + Unassigned (combined)', { label_id: LABELS[2]!, assignee: 'none' }, db().entities.chatLabelLink.query.byLabel({ org_id: ORG, label_id: LABELS[2]!, inbox_state: 'open' })],
      ['Label + Unread (combined)', { label_id: LABELS[2]!, unread: 'true' }, db().entities.chatLabelLink.query.byLabel({ org_id: ORG, label_id: LABELS[2]!, inbox_state: 'open' })],
      // the chat type with others: groups (about 15% of chats) on the sparse groups index, user chats filtered on the pages of another index
      ['Mine + Unread + Group (3 filters)', { assignee: 'me', unread: 'true', type: 'group' }, c.query.byGroupAssigneeUnread({ org_id: ORG, inbox_state: 'open', chat_type: 'group', assignee_key: me, unread_key: 'unread' })],
      ['Unassigned + Read + Group (3)', { assignee: 'none', unread: 'false', type: 'group' }, c.query.byGroupAssigneeUnread({ org_id: ORG, inbox_state: 'open', chat_type: 'group', assignee_key: 'none', unread_key: 'read' })],
      ['Mine + Unread + User (3 filters)', { assignee: 'me', unread: 'true', type: 'user' }, c.query.byAssigneeUnread({ org_id: ORG, inbox_state: 'open', assignee_key: me, unread_key: 'unread' })],
      ['Unread + User (combined)', { unread: 'true', type: 'user' }, c.query.byUnread({ org_id: ORG, inbox_state: 'open', unread_key: 'unread' })],
      ['Mine + User (combined)', { assignee: 'me', type: 'user' }, c.query.byAssignee({ org_id: ORG, inbox_state: 'open', assignee_key: me })],
      // groups with one more filter: their ChatGroupLink rows (gsi1: assignee, gsi2: unread)
      ['Mine + Group (combined)', { assignee: 'me', type: 'group' }, g.query.byGroupAssignee({ org_id: ORG, inbox_state: 'open', chat_type: 'group', assignee_key: me })],
      ['Unassigned + Group (combined)', { assignee: 'none', type: 'group' }, g.query.byGroupAssignee({ org_id: ORG, inbox_state: 'open', chat_type: 'group', assignee_key: 'none' })],
      ['Unread + Group (combined)', { unread: 'true', type: 'group' }, g.query.byGroupUnread({ org_id: ORG, inbox_state: 'open', chat_type: 'group', unread_key: 'unread' })],
    ];
    const fmt = (x: number) => x.toFixed(1).padStart(7);
    console.log(`\n${N} chats, first page of 50, ${RUNS} runs each (p50 / p95 ms)\n`);
    console.log(`${'filter'.padEnd(30)} ${'list p50'.padStart(8)} ${'p95'.padStart(7)} ${'raw p50'.padStart(8)} ${'p95'.padStart(7)}  ratio  got`);
    for (const [name, qs, raw] of cases) {
      const query = ListChatsQuery.parse({ ...qs, limit: '50' });
      const rawParams = { ...(raw.params() as object), Limit: 50, ScanIndexForward: false };
      const list: number[] = [];
      const rawT: number[] = [];
      let got = 0;
      let more = false;
      await listChats(actor, query);
      await documentClient().send(new QueryCommand(rawParams as never));
      for (let i = 0; i < RUNS; i++) {
        let s = performance.now();
        const res = await listChats(actor, query);
        list.push(performance.now() - s);
        got = res.chats.length;
        more = !!res.cursor;
        s = performance.now();
        await documentClient().send(new QueryCommand(rawParams as never));
        rawT.push(performance.now() - s);
      }
      const ratio = pct(list, 50) / pct(rawT, 50);
      console.log(`${name.padEnd(30)} ${fmt(pct(list, 50))} ${fmt(pct(list, 95))} ${fmt(pct(rawT, 50))} ${fmt(pct(rawT, 95))}  ${ratio.toFixed(2).padStart(5)}  ${got}${more ? '+' : ''}`);
    }
    const counts: number[] = [];
    let res: Awaited<ReturnType<typeof chatCounts>> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      res = await chatCounts(actor);
      counts.push(performance.now() - s);
    }
    const pins: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const s = performance.now();
      await listPinnedChats(actor, ListChatsQuery.parse({}));
      pins.push(performance.now() - s);
    }
    console.log(`\nGET /chats/pinned (3 pins; the browser asks for it beside the first page): p50 ${pct(pins, 50).toFixed(1)} ms, p95 ${pct(pins, 95).toFixed(1)} ms`);
    console.log(`GET /chats/counts (every folder x filter): p50 ${pct(counts, 50).toFixed(1)} ms, p95 ${pct(counts, 95).toFixed(1)} ms; open total ${res!.counts.open.total}, unread ${res!.counts.open.unread}, mine ${res!.counts.open.mine}`);
    console.log('ratio = list p50 / raw Query p50 (target <= 2.00); got = chats on the first page, + = a cursor for more');

    // bulk write throughput: label 1,000 open chats and take the label off again (the data is left as seeded)
    const { labelChats } = await import('../shared/chat/chat-workflow.ts');
    // events are counted, not delivered (no bus in this benchmark)
    let published = 0;
    (await import('../events/publish.ts')).setEventTransport({ put: async (entries: unknown[]) => void (published += entries.length) } as never);
    const admin = { ...actor, role: 'admin' as const };
    await db().entities.chatLabel.put({ org_id: ORG, label_id: 'lbl_bench_bulk', name: 'Bench bulk', color: '#123456' }).go();
    const targets: string[] = [];
    let cursor: string | undefined;
    while (targets.length < 1000) {
      const page = await listChats(admin, ListChatsQuery.parse({ limit: '1000', ...(cursor ? { cursor } : {}) }));
      targets.push(...page.chats.map((x) => x.chat_id));
      if (!page.cursor) break;
      cursor = page.cursor;
    }
    const ids = targets.slice(0, 1000);
    const steps: Array<[string, { add?: string[]; remove?: string[] }]> = [
      ['add', { add: ['lbl_bench_bulk'] }],
      ['remove', { remove: ['lbl_bench_bulk'] }],
    ];
    for (const [what, input] of steps) {
      const s = performance.now();
      let failed = 0;
      for (let i = 0; i < ids.length; i += 100) failed += (await labelChats(admin, ids.slice(i, i + 100), input)).failed.length;
      const secs = (performance.now() - s) / 1000;
      const labelled = (await chatCounts(admin)).counts.open.labels.lbl_bench_bulk ?? 0;
      console.log(`bulk label ${what}: ${ids.length} chats in ${secs.toFixed(1)} s = ${(ids.length / secs).toFixed(0)} chats/s (${failed} failed; 100 per call, as a bulk job chunk does); open chats with the label now: ${labelled}; events so far: ${published}`);
    }
    console.log(`(${published} chat.updated events published)`);
  } finally {
    // published events' outbox rows are deleted together a moment later: before the table goes
    await (await import('../events/outbox.ts')).flushOutboxDeletes();
    await dynamo.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
