import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../factories/runtime.ts';
import { eventually } from '../factories/wait.ts';
import { inboundText } from '../../shared/whatsapp/cloud/payloads.ts';
import { db } from '../../shared/db/service.ts';
import { OUTBOX_SHARDS } from '../../shared/outbox/outbox-event.entity.ts';
import { OUTBOX_GRACE_MS } from '../../events/outbox.ts';
import { SUBSCRIPTIONS, matchesPattern } from '../../events/catalog.ts';
import { onEventHandled } from '../../functions/lib/dedupe.ts';
import { runCrashChild } from '../factories/outbound-crash.ts';

/**
 * Issue 13 item 5, the outbox kill test: a child process runs a use case against the runtime's
 * table and is killed (SIGKILL) right after its transaction commits, before it publishes
 * (CHORUS_OUTBOX_CRASH_AFTER_COMMIT=1, events/outbox.ts). The change and its events were written
 * together, so the runtime's outbox poller relays them, and every subscribed consumer handles each
 * event exactly once, counted by event id (functions/lib/dedupe.ts onEventHandled); an event relayed
 * a second time (a relay that died after publishing, before deleting its row) is skipped.
 * No sleeps: the poller's periodic pass is off (CHORUS_OUTBOX_POLL_MS), the test runs a pass with a
 * clock moved past the grace period, and waits for conditions with a deadline.
 */
let rt: TestRuntime;
/** event id -> consumer -> times handled */
const handled = new Map<string, Map<string, number>>();
let stopListening: () => void;
/** the events the killed processes left, by event id */
const seenRows = new Map<string, Ev>();

type Stored = { source: string; detail_type: string; detail: unknown };
/** An outbox row: one commit's events (the first in its fields, the rest in `more`). */
type Row = Stored & { shard: number; written_at: number; event_id: string; expires_at: number; more?: Stored[] };
/** One event of an outbox row. */
type Ev = Stored & { event_id: string; row: Row };

/** Every event in the outbox, shard by shard (Query per shard, as the poller reads), each with its row. */
async function outboxRows(): Promise<Ev[]> {
  const rows: Row[] = [];
  for (let shard = 0; shard < OUTBOX_SHARDS; shard++) rows.push(...((await db().entities.outboxEvent.query.byShard({ shard }).go({ pages: 'all' })).data as Row[]));
  return rows.flatMap((row) => [row, ...(row.more ?? [])].map((e) => ({ source: e.source, detail_type: e.detail_type, detail: e.detail, event_id: (e.detail as { metadata: { id: string } }).metadata.id, row })));
}

/** The subscriptions whose pattern matches an outbox row (what must handle it). */
const subscribersOf = (r: Ev) => SUBSCRIPTIONS.filter((s) => matchesPattern(s.pattern, { source: r.source, 'detail-type': r.detail_type, detail: r.detail })).map((s) => s.name).sort();

/** Run the crash child with `job`; resolves with how it ended. */
const runKilledChild = (job: unknown) => runCrashChild(rt, 'tests/fixtures/outbox-crash-child.ts', job, { CHORUS_OUTBOX_CRASH_AFTER_COMMIT: '1' });

/** Kill a child after its commit, relay what it left, and check each event reached each subscriber once. */
async function killThenRelay(job: unknown): Promise<Ev[]> {
  const before = new Set((await outboxRows()).map((r) => r.event_id));
  const end = await runKilledChild(job);
  expect(end, end.stderr).toMatchObject({ signal: 'SIGKILL' });
  expect(end.stdout).not.toContain('published');
  const left = (await outboxRows()).filter((r) => !before.has(r.event_id));
  expect(left.length).toBeGreaterThan(0);
  for (const r of left) seenRows.set(r.event_id, r);
  // nothing was published: no consumer has seen these events
  for (const r of left) expect(handled.get(r.event_id)).toBeUndefined();

  // the poller's pass, with its clock past the grace period (what a pass a few seconds later does)
  const relayed = await rt.eventOutbox.drain(Date.now() + OUTBOX_GRACE_MS + 1);
  expect(relayed).toBeGreaterThanOrEqual(left.length);
  for (const r of left) {
    const want = subscribersOf(r);
    expect(want.length).toBeGreaterThan(0);
    await eventually(async () => want.every((c) => (handled.get(r.event_id)?.get(c) ?? 0) >= 1), 15_000, `${r.detail_type} ${r.event_id} handled by ${want.join(', ')}`);
  }
  await rt.idle();
  for (const r of left) expect(Object.fromEntries(handled.get(r.event_id) ?? [])).toEqual(Object.fromEntries(subscribersOf(r).map((c) => [c, 1])));
  // relayed rows are deleted
  const still = new Set((await outboxRows()).map((r) => r.event_id));
  for (const r of left) expect(still.has(r.event_id)).toBe(false);
  return left;
}

beforeAll(async () => {
  process.env.CHORUS_OUTBOX_POLL_MS = String(24 * 3600_000); // only the pass at start, and the test's own
  rt = await startTestRuntime();
  stopListening = onEventHandled((consumer, id) => {
    const m = handled.get(id) ?? new Map<string, number>();
    m.set(consumer, (m.get(consumer) ?? 0) + 1);
    handled.set(id, m);
  });
});
afterAll(async () => {
  stopListening?.();
  delete process.env.CHORUS_OUTBOX_POLL_MS;
  await rt?.cleanup();
});

describe('outbox: a process killed between its write and its publish', () => {
  const chatId = '15554440001@c.us';

  it('an inbound message stored by a killed process still reaches its consumers, once each', async () => {
    const body = JSON.stringify(inboundText(rt.phone, '15554440001', 'stored, then the process died', { timestampS: 1_790_300_000 }));
    const left = await killThenRelay({ kind: 'webhook', body });
    expect(left.map((r) => r.detail_type)).toEqual(['message.received']);
    // the change itself was committed by the killed process
    const chat = (await db().entities.chat.get({ org_id: rt.orgId, chat_id: chatId }).go()).data;
    expect(chat?.latest_message).toMatchObject({ body: 'stored, then the process died' });
  });

  it('a ticket made by a killed process: ticket.created and message.updated reach their consumers (fan-out, search, web push, webhooks, analytics, rules) once each', async () => {
    const message = (await db().entities.message.query.byChat({ org_id: rt.orgId, chat_id: chatId }).go()).data[0]!;
    const actor = { email: rt.adminEmail, user_id: 'admin', org_id: rt.orgId, role: 'admin' as const };
    const left = await killThenRelay({ kind: 'ticket', actor, chat_id: chatId, quoted_message_id: message.unique_id });
    expect(left.map((r) => r.detail_type).sort()).toEqual(['message.updated', 'ticket.created']);
    const created = left.find((r) => r.detail_type === 'ticket.created')!;
    expect(subscribersOf(created)).toEqual(['analytics-aggregate', 'realtime-fanout', 'rules-engine', 'search-indexing', 'web-push', 'webhook-dispatch']);
  });

  it('an event relayed again (published, then the relay died before deleting its row) is handled once per consumer', async () => {
    expect(await outboxRows()).toEqual([]); // everything was relayed
    const events = [...seenRows.values()];
    expect(events.length).toBe(3);
    const counts = new Map(events.map((r) => [r.event_id, Object.fromEntries(handled.get(r.event_id)!)]));
    // put the relayed events back as outbox rows, as a relay killed before its delete leaves them
    // (two rows: the ticket's two events were committed together, in one row)
    const rows = [...new Set(events.map((e) => e.row))];
    expect(rows.length).toBe(2);
    for (const r of rows) await db().entities.outboxEvent.put(r).go();
    expect(await rt.eventOutbox.drain(Date.now() + OUTBOX_GRACE_MS + 1)).toBe(events.length);
    await rt.idle();
    for (const r of events) expect(Object.fromEntries(handled.get(r.event_id)!)).toEqual(counts.get(r.event_id));
    expect(await outboxRows()).toEqual([]);
  });
});
