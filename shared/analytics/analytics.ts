import { db } from '../db/service.ts';
import { AppError } from '../errors.ts';
import { retryOnConflict, RETRY } from '../db/retry.ts';
import { getOrgPreferences } from '../org/preferences.ts';
import { memberPermissionsOf, permissionGranted } from '../org/permissions.rules.ts';
import type { Actor } from '../auth/actor.ts';
import type { AnalyticsReport, Figures } from './analytics.schemas.ts';

export type { AnalyticsReport, Figures };
import type { TxEntities, TxItem } from '../db/transaction.ts';
import {
  addRow,
  avg,
  COUNTERS,
  daysBetween,
  DIMENSIONS,
  emptyTotals,
  EMPTY_STATE,
  hourOf,
  MAX_RANGE_DAYS,
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
 * Analytics aggregates (issue 19; spec §2 /analytics): applying normalized inputs to the aggregate
 * rows (one DynamoDB transaction per event: the counters (ADD), the chat's state (version-guarded)
 * and the event's receipt (a conditional create: the event's id, so a repeat changes nothing)),
 * and reading a date range back (Queries over the aggregate rows only).
 * Times: epoch ms; days 'YYYY-MM-DD' UTC.
 */

/** The consumer name of the aggregation's receipts (ConsumerReceipt rows). */
export const ANALYTICS_CONSUMER = 'analytics-aggregate';
const RECEIPT_TTL_S = 7 * 86_400;
const HOURLY_TTL_S = 3 * 86_400;

const stateOf = (row: Record<string, unknown> | null): { state: ChatAnalyticsState; version: number | null } =>
  row
    ? { state: { opened_at: (row.opened_at as number | undefined) ?? null, waiting_since: (row.waiting_since as number | undefined) ?? null, responded: !!row.responded }, version: Number(row.version ?? 0) }
    : { state: { ...EMPTY_STATE }, version: null };

/** Transaction items that ADD increments to daily rows. */
function dailyOps(e: TxEntities, orgId: string, increments: Increment[]): TxItem[] {
  return mergeIncrements(increments).map((i) => {
    const counters = Object.fromEntries(Object.entries(i.counters).filter(([, v]) => v)) as Record<string, number>;
    return e.analyticsDaily.update({ org_id: orgId, dim: i.dim, dim_id: i.dim_id, day: i.day }).add(counters).commit() as TxItem;
  });
}

/** The hourly-row counters of some increments of the org dimension (today's chart). */
function hourlyCounters(input: AnalyticsInput, increments: Increment[]): Record<string, number> | null {
  const org = increments.filter((i) => i.dim === 'org');
  const c: Record<string, number> = {};
  for (const i of org) for (const k of ['msg_in', 'msg_out', 'conv_opened', 'conv_closed']) if (i.counters[k]) c[k] = (c[k] ?? 0) + i.counters[k]!;
  return Object.keys(c).length && input.at ? c : null;
}

/**
 * Apply one event's input to the aggregates, exactly once per `eventId`.
 * @returns 'applied', or 'duplicate' when the event's receipt already existed (nothing changed)
 * @throws ConflictRetriesExhausted when the chat's state kept changing under us (the queue retries)
 */
export async function applyAnalyticsInput(orgId: string, eventId: string, input: AnalyticsInput, now = Date.now()): Promise<'applied' | 'duplicate'> {
  const chatId = 'chat' in input ? input.chat.chat_id : null;
  return retryOnConflict(`analytics ${orgId} ${eventId}`, async () => {
    const loaded = chatId && touchesChatState(input) ? stateOf((await db().entities.analyticsChatState.get({ org_id: orgId, chat_id: chatId }).go({ consistent: true })).data as Record<string, unknown> | null) : null;
    const { state, increments } = reduce(loaded?.state ?? EMPTY_STATE, input);
    const hourly = hourlyCounters(input, increments);
    const res = await db()
      .transaction.write(((e: TxEntities) => {
        const items: TxItem[] = [e.consumerReceipt.create({ consumer: ANALYTICS_CONSUMER, event_id: eventId, handled_at: now, expires_at: Math.floor(now / 1000) + RECEIPT_TTL_S }).commit() as TxItem];
        if (loaded && chatId) {
          const row = { org_id: orgId, chat_id: chatId, opened_at: state.opened_at ?? undefined, waiting_since: state.waiting_since ?? undefined, responded: state.responded, version: (loaded.version ?? 0) + 1 };
          const put = e.analyticsChatState.put(row);
          items.push((loaded.version === null ? put.where((a, { notExists }) => notExists(a.version)) : put.where((a, { eq }) => eq(a.version, loaded.version!))).commit() as TxItem);
        }
        items.push(...dailyOps(e, orgId, increments));
        if (hourly)
          items.push(
            e.analyticsHourly
              .update({ org_id: orgId, hour: hourOf(input.at) })
              .add(hourly)
              .set({ expires_at: Math.floor(input.at / 1000) + HOURLY_TTL_S })
              .commit() as TxItem,
          );
        return items;
      }) as never)
      .go();
    if (!res.canceled) return 'applied' as const;
    const reasons = res.data as Array<{ rejected?: boolean }>;
    if (reasons[0]?.rejected) return 'duplicate' as const;
    return RETRY; // the chat's state changed under us: read it again
  });
}

/** Spec §6: /analytics follows member_permissions.analytics (admins always). @throws AppError 403 analytics.forbidden */
export async function assertAnalyticsAccess(actor: Actor): Promise<void> {
  if (actor.role === 'admin') return;
  const prefs = await getOrgPreferences(actor.org_id);
  if (!permissionGranted(memberPermissionsOf(prefs), 'analytics')) throw new AppError('analytics.forbidden', 'This page is restricted for non-admin members. Contact an administrator if you think this is a mistake.', { status: 403 });
}

type Row = Record<string, unknown> & { dim_id: string; day: string };

/** Every daily row of one dimension between two days (one paged Query). */
async function rowsOf(orgId: string, dim: Dimension, from: string, to: string): Promise<Row[]> {
  const res = await db().entities.analyticsDaily.query.byDay({ org_id: orgId, dim }).between({ day: from, dim_id: '' }, { day: to, dim_id: '\uffff' }).go({ pages: 'all' });
  return res.data as unknown as Row[];
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
  };
}

function sumBy(rows: Row[]): Map<string, Totals> {
  const m = new Map<string, Totals>();
  for (const r of rows) addRow(m.get(r.dim_id) ?? m.set(r.dim_id, emptyTotals()).get(r.dim_id)!, r);
  return m;
}

/**
 * Read the aggregates of [from, to] and of the previous period of the same length: six Queries
 * over daily rows (org, phone, member, label, group, group sender) plus today's hours. Never reads
 * a message or a chat. Group chats the actor may not see (spec §6 chat_access, `opts.visibleChatIds`:
 * the guard's) are left out of `groups`.
 * @throws AppError 400 (field `query.to`) when the range is reversed or longer than MAX_RANGE_DAYS; 403 as assertAnalyticsAccess
 */
export async function readAnalytics(actor: Actor, from: string, to: string, opts: { visibleChatIds?: (ids: string[]) => Promise<Set<string>>; now?: number } = {}): Promise<AnalyticsReport> {
  const now = opts.now ?? Date.now();
  await assertAnalyticsAccess(actor);
  const days = daysBetween(from, to);
  if (!days.length) throw new AppError('validation.failed', 'query.to: must not be before from', { details: [{ field: 'query.to', reason: 'must not be before from' }] });
  if (days.length > MAX_RANGE_DAYS) throw new AppError('validation.failed', `query.to: the range is at most ${MAX_RANGE_DAYS} days`, { details: [{ field: 'query.to', reason: `the range is at most ${MAX_RANGE_DAYS} days` }] });
  const prev = previousPeriod(from, to);
  const org = actor.org_id;
  const today = new Date(now).toISOString().slice(0, 10);
  const [orgRows, phoneRows, memberRows, labelRows, groupRows, authorRows, hours] = await Promise.all([
    rowsOf(org, 'org', prev.from, to),
    rowsOf(org, 'phone', from, to),
    rowsOf(org, 'member', from, to),
    rowsOf(org, 'label', from, to),
    rowsOf(org, 'group', from, to),
    rowsOf(org, 'gauthor', from, to),
    from <= today && today <= to ? db().entities.analyticsHourly.query.byHour({ org_id: org }).begins({ hour: today }).go({ pages: 'all' }) : Promise.resolve(null),
  ]);
  const totals = emptyTotals();
  const prevTotals = emptyTotals();
  const byDay = new Map(days.map((d) => [d, emptyTotals()]));
  for (const r of orgRows) {
    if (r.day < from) addRow(prevTotals, r);
    else {
      addRow(totals, r);
      const d = byDay.get(r.day);
      if (d) addRow(d, r);
    }
  }
  const allGroups = [...sumBy(groupRows)].map(([chat_id, t]) => ({ chat_id, messages: t.msg_in + t.msg_out }));
  const visible = opts.visibleChatIds && allGroups.length ? await opts.visibleChatIds(allGroups.map((g) => g.chat_id)) : null;
  const groups = allGroups.filter((g) => !visible || visible.has(g.chat_id)).sort((a, b) => b.messages - a.messages).slice(0, 20);
  const authors = sumBy(authorRows);
  return {
    from,
    to,
    previous: { ...prev, totals: figuresOf(prevTotals) },
    totals: figuresOf(totals),
    series: days.map((day) => ({ day, ...figuresOf(byDay.get(day)!) })),
    busiest_hours: totals.hours,
    members: [...sumBy(memberRows)].map(([email, t]) => ({ email, ...figuresOf(t) })).sort((a, b) => a.email.localeCompare(b.email)),
    phones: [...sumBy(phoneRows)].map(([phone_id, t]) => ({ phone_id, ...figuresOf(t) })),
    labels: [...sumBy(labelRows)].map(([label_id, t]) => ({ label_id, ...figuresOf(t) })),
    groups: groups.map((g) => ({
      ...g,
      top_members: [...authors]
        .filter(([k]) => k.startsWith(`${g.chat_id}|`))
        .map(([k, t]) => ({ author: k.slice(g.chat_id.length + 1), messages: t.msg_in }))
        .sort((a, b) => b.messages - a.messages)
        .slice(0, 5),
    })),
    today_hours: hours ? (hours.data as Array<Record<string, unknown>>).map((h) => ({ hour: String(h.hour), messages_in: Number(h.msg_in ?? 0), messages_out: Number(h.msg_out ?? 0) })) : null,
  };
}

/** CSV of a report (export): one line per day, then per member, number and label. */
export function analyticsCsv(r: AnalyticsReport): string {
  const cols = ['conversations_opened', 'conversations_closed', 'messages_in', 'messages_out', 'first_response_ms', 'response_ms', 'resolution_ms', 'tickets_created', 'tickets_resolved', 'assigned'] as const;
  const cell = (v: unknown) => (v === null || v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const lines = [['section', 'key', ...cols].join(',')];
  const add = (section: string, key: string, f: Figures) => lines.push([section, key, ...cols.map((c) => f[c])].map(cell).join(','));
  add('total', `${r.from}..${r.to}`, r.totals);
  add('previous', `${r.previous.from}..${r.previous.to}`, r.previous.totals);
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
