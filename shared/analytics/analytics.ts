import { LRUCache } from 'lru-cache';
import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { retryOnConflict, RETRY } from '../db/retry.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import { getOrgClock } from '../org/org-clock.ts';
import { memberPermissionsOf, permissionGranted } from '../org/permissions.rules.ts';
import type { Actor } from '../auth/actor.ts';
import type { AnalyticsBreakdown, AnalyticsGroups, AnalyticsReport, Figures } from './analytics.schemas.ts';
import { orgHasFeature, requireFeature } from '../plan/gate.ts';

export type { AnalyticsBreakdown, AnalyticsGroups, AnalyticsReport, Figures };

/** The attributes a read needs: the counters, plus the hour counters only for the org's rows (busiest hours). */
const READ_ATTRS = ['dim_id', 'day', ...COUNTERS] as const;
const READ_ATTRS_HOURS = [...READ_ATTRS, ...HOUR_COUNTERS] as const;
import type { TxEntities, TxItem } from '../db/transaction.ts';
import {
  addRow,
  avg,
  COUNTERS,
  HOUR_COUNTERS,
  daysBetween,
  DIMENSIONS,
  emptyTotals,
  EMPTY_STATE,
  dayOf,
  hourOf,
  MAX_RANGE_DAYS,
  planRange,
  rollupBucketsOf,
  withRollups,
  mergeIncrements,
  previousPeriod,
  reduce,
  touchesChatState,
  type AnalyticsInput,
  type ChatAnalyticsState,
  type Dimension,
  type Increment,
  type Totals,
} from './analytics.rules.ts';

/**
 * Analytics aggregates (issue 19; spec §2 /analytics): applying a batch of normalized inputs to the
 * aggregate rows (applyAnalyticsBatch: a claim transaction of the events' receipts and the chats'
 * states, then one ADD per row key), and reading a date range back (Queries over the aggregate
 * rows only: readAnalytics, readAnalyticsBreakdown, readGroupAnalytics).
 * Times: epoch ms; days 'YYYY-MM-DD' of the org's time zone (getOrgClock), plus week and month roll-up keys.
 */

/** The consumer name of the aggregation's receipts (ConsumerReceipt rows). */
export const ANALYTICS_CONSUMER = 'analytics-aggregate';
const RECEIPT_TTL_S = 7 * 86_400;
const HOURLY_TTL_S = 3 * 86_400;

const stateOf = (row: Record<string, unknown> | null): { state: ChatAnalyticsState; version: number | null } =>
  row
    ? { state: { opened_at: (row.opened_at as number | undefined) ?? null, waiting_since: (row.waiting_since as number | undefined) ?? null, responded: !!row.responded }, version: Number(row.version ?? 0) }
    : { state: { ...EMPTY_STATE }, version: null };

/** One event's input to aggregate, with the id that makes it count once. */
export interface AnalyticsEvent {
  eventId: string;
  input: AnalyticsInput;
}

/** ADD the merged increments: one UpdateItem per row key, 16 at a time, each retried on errors (throttling). */
async function addCounters(orgId: string, merged: Increment[], hourly: Map<string, Record<string, number>>, now: number): Promise<void> {
  const ops: Array<() => Promise<unknown>> = [];
  for (const i of merged) {
    const counters = Object.fromEntries(Object.entries(i.counters).filter(([, v]) => v)) as Record<string, number>;
    if (Object.keys(counters).length) ops.push(() => db().entities.analyticsDaily.update({ org_id: orgId, dim: i.dim, dim_id: i.dim_id, day: i.day }).add(counters).go({ response: 'none' }));
  }
  for (const [hour, counters] of hourly) ops.push(() => db().entities.analyticsHourly.update({ org_id: orgId, hour }).add(counters).set({ expires_at: Math.floor(now / 1000) + HOURLY_TTL_S }).go({ response: 'none' }));
  // the events are claimed already: a failed ADD is retried here (5 rounds, 50 ms doubling) rather than
  // by the queue, which would see the receipts and skip the batch
  const retried = async (op: () => Promise<unknown>) => {
    for (let n = 0; ; n++) {
      try {
        return await op();
      } catch (e) {
        if (n >= 4) throw e;
        await new Promise((r) => setTimeout(r, 50 * 2 ** n));
      }
    }
  };
  for (let i = 0; i < ops.length; i += 16) await Promise.all(ops.slice(i, i + 16).map(retried));
}

/** DynamoDB's TransactWriteItems limit (the claim transaction: receipts + chat states). */
const MAX_TX_ITEMS = 100;

type Versioned = { state: ChatAnalyticsState; version: number | null };

/**
 * The chats' states as this process last read or wrote them, keyed `<org_id>|<chat_id>` (at most
 * 20,000 chats, least recently used out). Never trusted on its own: the claim transaction puts each
 * state on the condition that its version is still the cached one, so a state another process (a
 * second Lambda instance) changed makes the claim fail, and the batch drops its chats from here and
 * reads them again. It saves the BatchGet of every batch whose chats were seen lately: one item
 * per message over many chats, on DynamoDB Local whose cost goes by items (issue 23).
 */
const stateCache = new LRUCache<string, Versioned>({ max: 20_000 });
const cacheKey = (orgId: string, chatId: string) => `${orgId}|${chatId}`;

/**
 * The chats' analytics states: cached ones from this process (stateCache), the rest with one
 * BatchGet, strongly consistent. @throws AnalyticsStatesUnprocessed when DynamoDB left keys unread
 */
async function loadStates(orgId: string, chatIds: string[]): Promise<Map<string, Versioned>> {
  const out = new Map<string, Versioned>();
  const missing: string[] = [];
  for (const id of chatIds) {
    const hit = stateCache.get(cacheKey(orgId, id));
    if (hit) out.set(id, hit);
    else missing.push(id);
  }
  if (!missing.length) return out;
  for (const id of missing) out.set(id, stateOf(null));
  const res = await db()
    .entities.analyticsChatState.get(missing.map((chat_id) => ({ org_id: orgId, chat_id })))
    .go({ consistent: true });
  for (const row of res.data as Array<Record<string, unknown>>) out.set(String(row.chat_id), stateOf(row));
  if (res.unprocessed.length) throw Object.assign(new Error('analytics: chat states not read (throttled); the queue retries'), { name: 'AnalyticsStatesUnprocessed' });
  for (const id of missing) stateCache.set(cacheKey(orgId, id), out.get(id)!);
  return out;
}

const stateChatOf = (input: AnalyticsInput): string | null => ('chat' in input && touchesChatState(input) ? input.chat.chat_id : null);

/** Hourly-row counters of an input's org increments (today's chart), keyed by the hour. */
function addHourly(into: Map<string, Record<string, number>>, input: AnalyticsInput, increments: Increment[], timeZone: string): void {
  for (const i of increments) {
    if (i.dim !== 'org') continue;
    for (const k of ['msg_in', 'msg_out', 'conv_opened', 'conv_closed']) {
      if (!i.counters[k]) continue;
      const key = hourOf(input.at, timeZone);
      const c = into.get(key) ?? into.set(key, {}).get(key)!;
      c[k] = (c[k] ?? 0) + i.counters[k]!;
    }
  }
}

/**
 * Apply a batch of events (one SQS batch of the analytics-aggregate consumer) to the aggregates,
 * exactly once per `eventId`, on the org's days and hours (`getOrgClock`, or `opts.timeZone`).
 * The chats' states are read once for the batch (one BatchGet of those this process has not
 * cached: loadStates, stateCache); then one small transaction claims
 * the batch, all or nothing: the events' receipts (conditional creates: a repeat is skipped) and
 * the chats' new states (version-guarded; split only past 100 items). Then the batch's increments,
 * grouped by row key (day, week and month rows: withRollups), are applied as ONE plain UpdateItem
 * `ADD` per row however many events hit it (no read-modify-write; hot rows such as the org's take
 * concurrent ADDs without the conflicts a transaction would meet). One batch of an org runs at a
 * time in a process (their chats overlap; other processes are kept out by the states' versions).
 * Exactly once: a repeat never counts twice (its receipt exists). A process that dies between the
 * claim and the ADDs loses that batch's counts (at most once in that window); `npm run
 * analytics:rebuild` recomputes the days from the table.
 * @returns how many events were applied and how many were repeats (nothing changed for them)
 * @throws ConflictRetriesExhausted when the states kept changing under us (the queue retries)
 */
export async function applyAnalyticsBatch(orgId: string, events: AnalyticsEvent[], opts: { now?: number; timeZone?: string } = {}): Promise<{ applied: number; duplicates: number }> {
  // one batch per org at a time in this process: two concurrent batches of an org share most of
  // their chats (and so their states' versions), and all but one of their claims would fail
  const prev = orgTurn.get(orgId) ?? Promise.resolve();
  const mine = prev.then(() => applyBatch(orgId, events, opts));
  const turn = mine.then(
    () => undefined,
    () => undefined,
  );
  orgTurn.set(orgId, turn);
  void turn.then(() => {
    if (orgTurn.get(orgId) === turn) orgTurn.delete(orgId);
  });
  return mine;
}

/** The tail of each org's chain of batches in this process (applyAnalyticsBatch). */
const orgTurn = new Map<string, Promise<void>>();

async function applyBatch(orgId: string, events: AnalyticsEvent[], opts: { now?: number; timeZone?: string }): Promise<{ applied: number; duplicates: number }> {
  const now = opts.now ?? Date.now();
  const tz = opts.timeZone ?? (await getOrgClock(orgId)).time_zone;
  const seen = new Set<string>();
  let rest = events.filter((e) => !seen.has(e.eventId) && !!seen.add(e.eventId));
  let duplicates = events.length - rest.length;
  let applied = 0;
  while (rest.length) {
    await retryOnConflict(`analytics ${orgId} batch of ${rest.length}`, async () => {
      if (!rest.length) return 'done' as const;
      const loaded = await loadStates(orgId, [...new Set(rest.map((e) => stateChatOf(e.input)).filter((c): c is string => !!c))]);
      const work = new Map([...loaded].map(([k, v]) => [k, v.state]));
      const chunk: AnalyticsEvent[] = [];
      const touched = new Set<string>();
      let incs: Increment[] = [];
      let merged: Increment[] = [];
      const hourly = new Map<string, Record<string, number>>();
      for (const ev of rest) {
        const chatId = stateChatOf(ev.input);
        const r = reduce(chatId ? work.get(chatId)! : EMPTY_STATE, ev.input, tz);
        const nextIncs = incs.concat(withRollups(r.increments));
        const nextMerged = mergeIncrements(nextIncs);
        const size = chunk.length + 1 + touched.size + (chatId && !touched.has(chatId) ? 1 : 0);
        if (size > MAX_TX_ITEMS && chunk.length) break;
        chunk.push(ev);
        incs = nextIncs;
        merged = nextMerged;
        if (chatId) {
          work.set(chatId, r.state);
          touched.add(chatId);
        }
        addHourly(hourly, ev.input, r.increments, tz);
      }
      // 1. claim: the events' receipts and the chats' new states, all or nothing (small: no hot rows)
      const res = await db()
        .transaction.write(((e: TxEntities) => {
          const items: TxItem[] = chunk.map((ev) => e.consumerReceipt.create({ consumer: ANALYTICS_CONSUMER, event_id: ev.eventId, handled_at: now, expires_at: Math.floor(now / 1000) + RECEIPT_TTL_S }).commit() as TxItem);
          for (const chatId of touched) {
            const before = loaded.get(chatId)!;
            const st = work.get(chatId)!;
            const put = e.analyticsChatState.put({ org_id: orgId, chat_id: chatId, opened_at: st.opened_at ?? undefined, waiting_since: st.waiting_since ?? undefined, responded: st.responded, version: (before.version ?? 0) + 1 });
            items.push((before.version === null ? put.where((a, { notExists }) => notExists(a.version)) : put.where((a, { eq }) => eq(a.version, before.version!))).commit() as TxItem);
          }
          return items;
        }) as never)
        .go();
      if (!res.canceled) {
        for (const chatId of touched) stateCache.set(cacheKey(orgId, chatId), { state: work.get(chatId)!, version: (loaded.get(chatId)!.version ?? 0) + 1 });
        // 2. count: one plain UpdateItem ADD per row key (DynamoDB serializes ADDs on a hot row
        // without conflicts; in a transaction every concurrent batch would conflict on the org row)
        await addCounters(orgId, merged, hourly, now);
        applied += chunk.length;
        rest = rest.slice(chunk.length);
        return 'done' as const;
      }
      // a repeat, or a state changed elsewhere: these chats are read from the table next time
      for (const chatId of touched) stateCache.delete(cacheKey(orgId, chatId));
      const reasons = res.data as Array<{ code?: string }>;
      const dup = new Set(chunk.filter((_, i) => reasons[i]?.code === 'ConditionalCheckFailed').map((ev) => ev.eventId));
      if (dup.size) {
        duplicates += dup.size;
        rest = rest.filter((ev) => !dup.has(ev.eventId));
      }
      return RETRY; // a repeat, or a chat's state changed under us: read again
    });
  }
  return { applied, duplicates };
}

/**
 * Apply one event's input (a batch of one: applyAnalyticsBatch), exactly once per `eventId`.
 * @returns 'applied', or 'duplicate' when the event's receipt already existed (nothing changed)
 */
export async function applyAnalyticsInput(orgId: string, eventId: string, input: AnalyticsInput, now = Date.now()): Promise<'applied' | 'duplicate'> {
  const r = await applyAnalyticsBatch(orgId, [{ eventId, input }], { now });
  return r.applied ? 'applied' : 'duplicate';
}

/** Spec §6: /analytics follows member_permissions.analytics (admins always). @throws AppError 403 analytics.forbidden */
export async function assertAnalyticsAccess(actor: Actor): Promise<void> {
  if (actor.role === 'admin') return;
  const prefs = await getOrgPreferences(actor.org_id);
  if (!permissionGranted(memberPermissionsOf(prefs), 'analytics')) throw new AppError('analytics.forbidden', 'This page is restricted for non-admin members. Contact an administrator if you think this is a mistake.', { status: 403 });
}

type Row = Record<string, unknown> & { dim_id: string; day: string };

/** Every row of one dimension in one run of keys (one paged Query). */
async function rowsBetween(orgId: string, dim: Dimension, fromKey: string, toKey: string): Promise<Row[]> {
  const attributes = (dim === 'org' ? READ_ATTRS_HOURS : READ_ATTRS) as unknown as Array<'dim_id'>;
  const res = await db().entities.analyticsDaily.query.byDay({ org_id: orgId, dim }).between({ day: fromKey, dim_id: '' }, { day: toKey, dim_id: '\uffff' }).go({ pages: 'all', attributes });
  return res.data as unknown as Row[];
}

/** The DAY rows of one dimension between two days (rebuild, the per-day series). */
const rowsOf = (orgId: string, dim: Dimension, from: string, to: string): Promise<Row[]> => rowsBetween(orgId, dim, from, to);

/**
 * The rows that sum one dimension over the days [from, to]: whole months and weeks from their
 * roll-up rows, the odd days from day rows (planRange: one Query per run, in parallel).
 */
async function rolledRows(orgId: string, dim: Dimension, from: string, to: string): Promise<Row[]> {
  return (await Promise.all(planRange(from, to).map((r) => rowsBetween(orgId, dim, r.from, r.to)))).flat();
}

export function figuresOf(t: Totals): Figures {
  return {
    conversations_opened: t.conv_opened,
    conversations_closed: t.conv_closed,
    messages_in: t.msg_in,
    messages_out: t.msg_out,
    first_response_ms: avg(t.frt_sum, t.frt_count),
    response_ms: avg(t.rt_sum, t.rt_count),
    resolution_ms: avg(t.res_sum, t.res_count),
    tickets_created: t.tickets_created,
    tickets_resolved: t.tickets_resolved,
    assigned: t.assigned,
    sla_breaches: t.sla_breaches ?? 0,
  };
}

function sumBy(rows: Row[]): Map<string, Totals> {
  const m = new Map<string, Totals>();
  for (const r of rows) addRow(m.get(r.dim_id) ?? m.set(r.dim_id, emptyTotals()).get(r.dim_id)!, r);
  return m;
}

/** 400 for a reversed or too long range. */
function checkRange(from: string, to: string): string[] {
  const days = daysBetween(from, to);
  if (!days.length) throw new AppError('validation.failed', 'query.to: must not be before from', { details: [{ field: 'query.to', reason: 'must not be before from' }] });
  if (days.length > MAX_RANGE_DAYS) throw new AppError('validation.failed', `query.to: the range is at most ${MAX_RANGE_DAYS} days`, { details: [{ field: 'query.to', reason: `the range is at most ${MAX_RANGE_DAYS} days` }] });
  return days;
}

/**
 * Read the summary of the org-local days [from, to] (the first view of /analytics). Basic figures
 * (every plan): the totals, one entry per day and today's hours — one Query of the org's day rows.
 * Advanced (plans with `advanced_analytics`, spec §9; `advanced: false` and null parts otherwise):
 * the previous period of the same length (read as whole months + whole weeks + odd days:
 * planRange) and the busiest hours. Per member, number and label: readAnalyticsBreakdown; groups:
 * readGroupAnalytics (second requests of the page). Never reads a message or a chat.
 * @throws AppError 400 (field `query.to`) when the range is reversed or longer than MAX_RANGE_DAYS; 403 as assertAnalyticsAccess
 */
export async function readAnalytics(actor: Actor, from: string, to: string, opts: { now?: number } = {}): Promise<AnalyticsReport> {
  const now = opts.now ?? Date.now();
  await assertAnalyticsAccess(actor);
  const days = checkRange(from, to);
  const org = actor.org_id;
  const [clock, advanced] = await Promise.all([getOrgClock(org), orgHasFeature(org, 'advanced_analytics')]);
  const prev = previousPeriod(from, to);
  const today = dayOf(now, clock.time_zone);
  const none = Promise.resolve([] as Row[]);
  const [orgRows, prevRows, hours] = await Promise.all([
    rowsOf(org, 'org', from, to),
    advanced ? rolledRows(org, 'org', prev.from, prev.to) : none,
    from <= today && today <= to ? db().entities.analyticsHourly.query.byHour({ org_id: org }).begins({ hour: today }).go({ pages: 'all' }) : Promise.resolve(null),
  ]);
  const totals = emptyTotals();
  const byDay = new Map(days.map((d) => [d, emptyTotals()]));
  for (const r of orgRows) {
    addRow(totals, r);
    const d = byDay.get(r.day);
    if (d) addRow(d, r);
  }
  const prevTotals = emptyTotals();
  for (const r of prevRows) addRow(prevTotals, r);
  return {
    from,
    to,
    time_zone: clock.time_zone,
    today,
    advanced,
    previous: advanced ? { ...prev, totals: figuresOf(prevTotals) } : null,
    totals: figuresOf(totals),
    series: days.map((day) => ({ day, ...figuresOf(byDay.get(day)!) })),
    busiest_hours: advanced ? totals.hours : null,
    today_hours: hours ? (hours.data as Array<Record<string, unknown>>).map((h) => ({ hour: String(h.hour), messages_in: Number(h.msg_in ?? 0), messages_out: Number(h.msg_out ?? 0) })) : null,
  };
}

/**
 * Per member, number and label over [from, to] (advanced analytics, spec §9): each dimension read as
 * whole months + whole weeks + odd days (planRange), so 30 days read ~12 rows per member, not 30.
 * @throws AppError 400 as readAnalytics; 403 analytics.forbidden; 403 plan_feature
 */
export async function readAnalyticsBreakdown(actor: Actor, from: string, to: string): Promise<AnalyticsBreakdown> {
  await assertAnalyticsAccess(actor);
  checkRange(from, to);
  await requireFeature(actor.org_id, 'advanced_analytics');
  const org = actor.org_id;
  const [phoneRows, memberRows, labelRows] = await Promise.all([rolledRows(org, 'phone', from, to), rolledRows(org, 'member', from, to), rolledRows(org, 'label', from, to)]);
  return {
    from,
    to,
    members: [...sumBy(memberRows)].map(([email, t]) => ({ email, ...figuresOf(t) })).sort((a, b) => a.email.localeCompare(b.email)),
    phones: [...sumBy(phoneRows)].map(([phone_id, t]) => ({ phone_id, ...figuresOf(t) })),
    labels: [...sumBy(labelRows)].map(([label_id, t]) => ({ label_id, ...figuresOf(t) })),
  };
}

/**
 * The most active group chats of [from, to] (at most 20) with their most active senders (at most
 * 5 each): roll-up Queries of the group and group-sender rows. Advanced analytics (spec §9). Group
 * chats the actor may not see (`visibleChatIds`: the guard's, spec §6 chat_access) are left out.
 * @throws AppError 400 as readAnalytics; 403 analytics.forbidden; 403 plan_feature
 */
export async function readGroupAnalytics(actor: Actor, from: string, to: string, visibleChatIds: (ids: string[]) => Promise<Set<string>>): Promise<AnalyticsGroups> {
  await assertAnalyticsAccess(actor);
  checkRange(from, to);
  await requireFeature(actor.org_id, 'advanced_analytics');
  const [groupRows, authorRows] = await Promise.all([rolledRows(actor.org_id, 'group', from, to), rolledRows(actor.org_id, 'gauthor', from, to)]);
  const allGroups = [...sumBy(groupRows)].map(([chat_id, t]) => ({ chat_id, messages: t.msg_in + t.msg_out }));
  const visible = allGroups.length ? await visibleChatIds(allGroups.map((g) => g.chat_id)) : new Set<string>();
  const groups = allGroups.filter((g) => visible.has(g.chat_id)).sort((a, b) => b.messages - a.messages).slice(0, 20);
  const authors = sumBy(authorRows);
  return {
    from,
    to,
    groups: groups.map((g) => ({
      ...g,
      top_members: [...authors]
        .filter(([k]) => k.startsWith(`${g.chat_id}|`))
        .map(([k, t]) => ({ author: k.slice(g.chat_id.length + 1), messages: t.msg_in }))
        .sort((a, b) => b.messages - a.messages)
        .slice(0, 5),
    })),
  };
}

/** CSV of a report (export): one line per day, then per member, number and label. */
export function analyticsCsv(r: AnalyticsReport & AnalyticsBreakdown): string {
  const cols = ['conversations_opened', 'conversations_closed', 'messages_in', 'messages_out', 'first_response_ms', 'response_ms', 'resolution_ms', 'tickets_created', 'tickets_resolved', 'assigned', 'sla_breaches'] as const;
  const cell = (v: unknown) => (v === null || v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const lines = [['section', 'key', ...cols].join(',')];
  const add = (section: string, key: string, f: Figures) => lines.push([section, key, ...cols.map((c) => f[c])].map(cell).join(','));
  add('total', `${r.from}..${r.to}`, r.totals);
  if (r.previous) add('previous', `${r.previous.from}..${r.previous.to}`, r.previous.totals);
  for (const d of r.series) add('day', d.day, d);
  for (const m of r.members) add('member', m.email, m);
  for (const p of r.phones) add('number', p.phone_id, p);
  for (const l of r.labels) add('label', l.label_id, l);
  return `${lines.join('\n')}\n`;
}

/** Delete the daily rows of an org between two days (rebuild), dimension by dimension. @returns rows deleted */
export async function clearDailyRows(orgId: string, from: string, to: string): Promise<number> {
  let n = 0;
  for (const dim of DIMENSIONS) {
    const rows = await rowsOf(orgId, dim, from, to);
    for (let i = 0; i < rows.length; i += 25) {
      const batch = rows.slice(i, i + 25).map((r) => ({ org_id: orgId, dim, dim_id: r.dim_id, day: r.day }));
      await db().entities.analyticsDaily.delete(batch).go();
      n += batch.length;
    }
  }
  return n;
}

/** Write summed increments as whole daily rows (rebuild; replaces what was there). @returns rows written */
export async function putDailyRows(orgId: string, increments: Increment[]): Promise<number> {
  const rows = mergeIncrements(increments).map((i) => ({ org_id: orgId, dim: i.dim, dim_id: i.dim_id, day: i.day, ...i.counters }));
  for (let i = 0; i < rows.length; i += 25) await db().entities.analyticsDaily.put(rows.slice(i, i + 25) as never).go();
  return rows.length;
}

/** Counter names, for tests and the bench. */
export const ANALYTICS_COUNTERS = COUNTERS;

/**
 * Recompute the week and month roll-up rows that the days [from, to] touch, from the day rows
 * (rebuild; after putDailyRows). Reads each dimension's day rows over the buckets' whole span
 * (one Query per dimension), deletes the old roll-ups of those buckets and writes the sums.
 * @returns roll-up rows written
 */
export async function rollUpRows(orgId: string, from: string, to: string): Promise<number> {
  const { span, keys } = rollupBucketsOf(from, to);
  const weeks = [...keys].filter((k) => k.startsWith('W')).sort();
  const months = [...keys].filter((k) => k.startsWith('M')).sort();
  let n = 0;
  for (const dim of DIMENSIONS) {
    const days = await rowsOf(orgId, dim, span.from, span.to);
    const incs: Increment[] = [];
    for (const r of days) {
      const counters = Object.fromEntries([...COUNTERS, ...HOUR_COUNTERS].filter((c) => r[c]).map((c) => [c, Number(r[c])]));
      for (const i of withRollups([{ dim, dim_id: r.dim_id, day: r.day, counters }]).slice(1)) if (keys.has(i.day)) incs.push(i);
    }
    const old = [...(weeks.length ? await rowsBetween(orgId, dim, weeks[0]!, weeks[weeks.length - 1]!) : []), ...(months.length ? await rowsBetween(orgId, dim, months[0]!, months[months.length - 1]!) : [])];
    for (let i = 0; i < old.length; i += 25) await db().entities.analyticsDaily.delete(old.slice(i, i + 25).map((r) => ({ org_id: orgId, dim, dim_id: r.dim_id, day: r.day }))).go();
    n += await putDailyRows(orgId, incs);
  }
  return n;
}
