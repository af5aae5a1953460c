import { localTime } from '../org/business-hours.rules.ts';

/**
 * Analytics aggregation rules (issue 19; spec §2 /analytics), pure.
 *
 * Domain events become counter increments on aggregate rows: one daily row per
 * org × dimension × day of the org's time zone (plus week and month roll-up rows: withRollups), where a dimension is the whole org (`org`, id `_`), an org number
 * (`phone`, its phone_id), a member (`member`, email), a chat label (`label`, label_id), a group
 * chat (`group`, chat_id) or a group's sender (`gauthor`, `{chat_id}|{author}`), plus one hourly
 * row per org × UTC hour for today's chart. Counters only ever grow (DynamoDB ADD), so reads sum
 * rows and never touch messages.
 *
 * Definitions (times are epoch **ms**; durations in ms):
 * - conversation opened: a customer message in a chat with no open conversation (per-chat
 *   analytics state, `ChatAnalyticsState`); closed: the chat is closed for everyone (`chat.updated`
 *   with `closed_at`). Resolution time = close − open.
 * - first response time: first member message after the conversation opened − open.
 * - response time: each member message answering waiting customer messages − the first of those.
 * - tickets created / resolved: `ticket.created` / `ticket.closed`.
 * - busiest hours: messages (in + out) by the org's hour of day (`h00`…`h23` on daily rows).
 * - per member workload: chats assigned to them (`assigned`), messages they sent, customer
 *   messages in chats assigned to them, and their response times.
 */

/** The counters of an aggregate row (all integers; durations in ms as sum + count). */
export const COUNTERS = [
  'conv_opened',
  'conv_closed',
  'msg_in',
  'msg_out',
  'frt_sum',
  'frt_count',
  'rt_sum',
  'rt_count',
  'res_sum',
  'res_count',
  'tickets_created',
  'tickets_resolved',
  'assigned',
  /** issue 17 §6 / issue 19: SLA targets breached (first response, next response, resolution), on the day they were due */
  'sla_breaches',
] as const;
export type Counter = (typeof COUNTERS)[number];

/** Hour-of-day counters of a daily row: h00 … h23 (the org's hours). */
export const HOUR_COUNTERS = Array.from({ length: 24 }, (_, h) => `h${String(h).padStart(2, '0')}`) as readonly `h${string}`[];

export type Dimension = 'org' | 'phone' | 'member' | 'label' | 'group' | 'gauthor';
export const DIMENSIONS: readonly Dimension[] = ['org', 'phone', 'member', 'label', 'group', 'gauthor'];

/** One increment of one daily row. `counters` may include hour counters (`h13`). */
export interface Increment {
  dim: Dimension;
  dim_id: string;
  /** UTC day, 'YYYY-MM-DD' */
  day: string;
  counters: Partial<Record<string, number>>;
}

/** What the aggregator remembers per chat between events (an item keyed by org + chat). */
export interface ChatAnalyticsState {
  /** epoch ms the open conversation started, null when none is open */
  opened_at: number | null;
  /** epoch ms of the first customer message still waiting for a member's answer */
  waiting_since: number | null;
  /** whether the open conversation had its first response */
  responded: boolean;
}

export const EMPTY_STATE: ChatAnalyticsState = { opened_at: null, waiting_since: null, responded: false };

/** What the rules need to know about the chat an event touches. */
export interface ChatFacts {
  chat_id: string;
  chat_type: 'user' | 'group' | 'other';
  phone_id: string;
  label_ids: string[];
  assigned_to: string | null;
}

/** The normalized inputs the rules accept (built from bus events or, in a rebuild, from rows). */
export type AnalyticsInput =
  | { kind: 'message_in'; at: number; chat: ChatFacts; author: string | null }
  | { kind: 'message_out'; at: number; chat: ChatFacts; member: string | null }
  | { kind: 'chat_closed'; at: number; chat: ChatFacts; by: string | null }
  | { kind: 'chat_assigned'; at: number; chat: ChatFacts; to: string }
  | { kind: 'ticket_created'; at: number; phone_id: string; assignee: string | null }
  | { kind: 'ticket_resolved'; at: number; phone_id: string; assignee: string | null }
  /** an SLA target breached (shared/sla/sla-engine.ts): counted per org, number, assignee and label on the day it was due */
  | { kind: 'sla_breached'; at: number; chat: ChatFacts };

/** The zone rows are counted in when an org has none (and for calendar arithmetic). */
export const UTC = 'Etc/UTC';

/** The day of an epoch-ms instant in `timeZone` (the org's, shared/org/org-clock.ts): 'YYYY-MM-DD'. */
export const dayOf = (at: number, timeZone: string = UTC): string => (timeZone === UTC ? new Date(at).toISOString().slice(0, 10) : localTime(at, timeZone).date);
/** The hour of an epoch-ms instant in `timeZone`: 'YYYY-MM-DDTHH' (the hourly rows' key). */
export const hourOf = (at: number, timeZone: string = UTC): string => {
  if (timeZone === UTC) return new Date(at).toISOString().slice(0, 13);
  const t = localTime(at, timeZone);
  return `${t.date}T${String(t.hour).padStart(2, '0')}`;
};
/** The hour-of-day counter name of an instant in `timeZone` ('h00'…'h23'). */
export const hourCounterOf = (at: number, timeZone: string = UTC): string => `h${(timeZone === UTC ? new Date(at).toISOString().slice(11, 13) : String(localTime(at, timeZone).hour).padStart(2, '0'))}`;

// ---- roll-ups: weekly and monthly rows, so a long range reads few rows ----

const DAY_MS = 86_400_000;
const dayMs = (d: string): number => Date.parse(`${d}T00:00:00Z`);
const plusDays = (d: string, n: number): string => new Date(dayMs(d) + n * DAY_MS).toISOString().slice(0, 10);
/** The Monday of a calendar day's week ('YYYY-MM-DD'; ISO weeks start on Monday). */
export const mondayOf = (d: string): string => plusDays(d, -((new Date(dayMs(d)).getUTCDay() + 6) % 7));
/** The last day of a calendar day's month. */
const monthEndOf = (d: string): string => {
  const t = new Date(dayMs(d));
  return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
};
/** Row key of the week starting on Monday `monday`: 'W2026-11-23'. Sorts after every day key. */
export const weekKey = (monday: string): string => `W${monday}`;
/** Row key of a day's month: 'M2026-11'. Sorts after every day key. */
export const monthKey = (d: string): string => `M${d.slice(0, 7)}`;

/**
 * Each day increment again on its week's and its month's row (the live consumer and the rebuild
 * write all three, so a range is read as whole months, whole weeks and the odd days: planRange).
 */
export function withRollups(increments: Increment[]): Increment[] {
  return increments.flatMap((i) => [i, { ...i, day: weekKey(mondayOf(i.day)) }, { ...i, day: monthKey(i.day) }]);
}

/** A run of consecutive row keys of one kind (days, weeks or months), read by one Query. */
export interface KeyRun {
  kind: 'day' | 'week' | 'month';
  /** first and last row key of the run, inclusive */
  from: string;
  to: string;
  count: number;
}

/**
 * The fewest rows that cover the days [from, to] (inclusive, 'YYYY-MM-DD'): whole calendar months
 * as month rows, whole Monday–Sunday weeks as week rows, the rest as day rows, greedily from the
 * start; consecutive keys of one kind are merged into runs (one Query each). 30 days need at most
 * ~4 weeks + 12 days; a year 12 months at most + a few days.
 */
export function planRange(from: string, to: string): KeyRun[] {
  const runs: KeyRun[] = [];
  const push = (kind: KeyRun['kind'], key: string) => {
    const last = runs[runs.length - 1];
    if (last && last.kind === kind) {
      last.to = key;
      last.count++;
    } else runs.push({ kind, from: key, to: key, count: 1 });
  };
  for (let d = from; d <= to; ) {
    const monthEnd = monthEndOf(d);
    if (d.endsWith('-01') && monthEnd <= to) {
      push('month', monthKey(d));
      d = plusDays(monthEnd, 1);
    } else if (mondayOf(d) === d && plusDays(d, 6) <= to) {
      push('week', weekKey(d));
      d = plusDays(d, 7);
    } else {
      push('day', d);
      d = plusDays(d, 1);
    }
  }
  return runs;
}

/** The week and month keys whose rows sum the days [from, to] touch (rebuild: recompute them). */
export function rollupBucketsOf(from: string, to: string): { span: { from: string; to: string }; keys: Set<string> } {
  const keys = new Set<string>();
  for (let d = from; d <= to; d = plusDays(d, 1)) {
    keys.add(weekKey(mondayOf(d)));
    keys.add(monthKey(d));
  }
  const start = mondayOf(from) < `${from.slice(0, 7)}-01` ? mondayOf(from) : `${from.slice(0, 7)}-01`;
  const sunday = plusDays(mondayOf(to), 6);
  const end = sunday > monthEndOf(to) ? sunday : monthEndOf(to);
  return { span: { from: start, to: end }, keys };
}

/** The dimensions a chat event counts in: org, its number, its labels, its group, and optionally a member. */
function chatDims(chat: ChatFacts, member: string | null): Array<[Dimension, string]> {
  const dims: Array<[Dimension, string]> = [['org', '_'], ['phone', chat.phone_id]];
  for (const l of chat.label_ids) dims.push(['label', l]);
  if (chat.chat_type === 'group') dims.push(['group', chat.chat_id]);
  if (member) dims.push(['member', member.toLowerCase()]);
  return dims;
}

const incs = (dims: Array<[Dimension, string]>, at: number, counters: Partial<Record<string, number>>, timeZone: string): Increment[] =>
  dims.map(([dim, dim_id]) => ({ dim, dim_id, day: dayOf(at, timeZone), counters: { ...counters } }));

/**
 * Apply one input to a chat's state: the new state and the daily-row increments it causes, on the
 * days and hours of `timeZone` (the org's; spec §9 analytics days are the org's days).
 * Pure and deterministic (the same input on the same state gives the same output), so the live
 * consumer and `analytics:rebuild` agree.
 */
export function reduce(state: ChatAnalyticsState, input: AnalyticsInput, timeZone: string = UTC): { state: ChatAnalyticsState; increments: Increment[] } {
  const out: Increment[] = [];
  let next = { ...state };
  switch (input.kind) {
    case 'message_in': {
      const c: Record<string, number> = { msg_in: 1, [hourCounterOf(input.at, timeZone)]: 1 };
      if (next.opened_at === null) {
        next = { opened_at: input.at, waiting_since: input.at, responded: false };
        c.conv_opened = 1;
      } else if (next.waiting_since === null) next.waiting_since = input.at;
      out.push(...incs(chatDims(input.chat, input.chat.assigned_to), input.at, c, timeZone));
      if (input.chat.chat_type === 'group' && input.author) out.push(...incs([['gauthor', `${input.chat.chat_id}|${input.author}`]], input.at, { msg_in: 1 }, timeZone));
      break;
    }
    case 'message_out': {
      const c: Record<string, number> = { msg_out: 1, [hourCounterOf(input.at, timeZone)]: 1 };
      if (next.waiting_since !== null) {
        c.rt_sum = Math.max(0, input.at - next.waiting_since);
        c.rt_count = 1;
        next.waiting_since = null;
      }
      if (next.opened_at !== null && !next.responded) {
        c.frt_sum = Math.max(0, input.at - next.opened_at);
        c.frt_count = 1;
        next.responded = true;
      }
      out.push(...incs(chatDims(input.chat, input.member ?? input.chat.assigned_to), input.at, c, timeZone));
      break;
    }
    case 'chat_closed': {
      const c: Record<string, number> = { conv_closed: 1 };
      if (next.opened_at !== null) {
        c.res_sum = Math.max(0, input.at - next.opened_at);
        c.res_count = 1;
      }
      next = { ...EMPTY_STATE };
      out.push(...incs(chatDims(input.chat, input.chat.assigned_to ?? input.by), input.at, c, timeZone));
      break;
    }
    case 'chat_assigned':
      out.push(...incs([['org', '_'], ['member', input.to.toLowerCase()]], input.at, { assigned: 1 }, timeZone));
      break;
    case 'sla_breached':
      out.push(...incs(chatDims(input.chat, input.chat.assigned_to), input.at, { sla_breaches: 1 }, timeZone));
      break;
    case 'ticket_created':
    case 'ticket_resolved': {
      const key = input.kind === 'ticket_created' ? 'tickets_created' : 'tickets_resolved';
      const dims: Array<[Dimension, string]> = [['org', '_'], ['phone', input.phone_id]];
      if (input.assignee) dims.push(['member', input.assignee.toLowerCase()]);
      out.push(...incs(dims, input.at, { [key]: 1 }, timeZone));
      break;
    }
  }
  return { state: next, increments: out };
}

/** Does the input read or change the chat's state (and so need it loaded)? */
export const touchesChatState = (input: AnalyticsInput): boolean => input.kind === 'message_in' || input.kind === 'message_out' || input.kind === 'chat_closed';

/** Merge increments that hit the same row (fewer writes; a transaction may not touch one item twice). */
export function mergeIncrements(all: Increment[]): Increment[] {
  const byKey = new Map<string, Increment>();
  for (const i of all) {
    const k = `${i.dim}\u0000${i.dim_id}\u0000${i.day}`;
    const cur = byKey.get(k);
    if (!cur) byKey.set(k, { ...i, counters: { ...i.counters } });
    else for (const [c, v] of Object.entries(i.counters)) cur.counters[c] = (cur.counters[c] ?? 0) + (v ?? 0);
  }
  return [...byKey.values()];
}

/** Summed counters of some rows (missing counters count 0). */
export type Totals = Record<Counter, number> & { hours: number[] };

export function emptyTotals(): Totals {
  const t = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number>;
  return { ...t, hours: Array.from({ length: 24 }, () => 0) };
}

/** Add a row's counters into totals (mutates and returns `into`). */
export function addRow(into: Totals, row: Record<string, unknown>): Totals {
  for (const c of COUNTERS) into[c] += Number(row[c] ?? 0);
  HOUR_COUNTERS.forEach((h, i) => (into.hours[i]! += Number(row[h] ?? 0)));
  return into;
}

/** Average in ms, or null without samples. */
export const avg = (sum: number, count: number): number | null => (count > 0 ? Math.round(sum / count) : null);

/** Days from `from` to `to` inclusive ('YYYY-MM-DD', UTC). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) out.push(dayOf(t));
  return out;
}

/** The period of equal length just before [from, to] (spec: 'compared with the previous period'). */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const len = daysBetween(from, to).length;
  const start = Date.parse(`${from}T00:00:00Z`);
  return { from: dayOf(start - len * 86_400_000), to: dayOf(start - 86_400_000) };
}

/** Longest range one request may read (days). */
export const MAX_RANGE_DAYS = 366;
