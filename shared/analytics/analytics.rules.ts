/**
 * Analytics aggregation rules (issue 19; spec §2 /analytics), pure.
 *
 * Domain events become counter increments on aggregate rows: one daily row per
 * org × dimension × UTC day, where a dimension is the whole org (`org`, id `_`), an org number
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
 * - busiest hours: messages (in + out) by UTC hour of day (`h00`…`h23` on daily rows).
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
] as const;
export type Counter = (typeof COUNTERS)[number];

/** Hour-of-day counters of a daily row: h00 … h23 (UTC). */
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
  | { kind: 'ticket_resolved'; at: number; phone_id: string; assignee: string | null };

/** UTC day of an epoch-ms instant: 'YYYY-MM-DD'. */
export const dayOf = (at: number): string => new Date(at).toISOString().slice(0, 10);
/** UTC hour of an epoch-ms instant: 'YYYY-MM-DDTHH'. */
export const hourOf = (at: number): string => new Date(at).toISOString().slice(0, 13);
/** The hour-of-day counter name of an instant ('h00'…'h23', UTC). */
export const hourCounterOf = (at: number): string => `h${new Date(at).toISOString().slice(11, 13)}`;

/** The dimensions a chat event counts in: org, its number, its labels, its group, and optionally a member. */
function chatDims(chat: ChatFacts, member: string | null): Array<[Dimension, string]> {
  const dims: Array<[Dimension, string]> = [['org', '_'], ['phone', chat.phone_id]];
  for (const l of chat.label_ids) dims.push(['label', l]);
  if (chat.chat_type === 'group') dims.push(['group', chat.chat_id]);
  if (member) dims.push(['member', member.toLowerCase()]);
  return dims;
}

const incs = (dims: Array<[Dimension, string]>, at: number, counters: Partial<Record<string, number>>): Increment[] =>
  dims.map(([dim, dim_id]) => ({ dim, dim_id, day: dayOf(at), counters: { ...counters } }));

/**
 * Apply one input to a chat's state: the new state and the daily-row increments it causes.
 * Pure and deterministic (the same input on the same state gives the same output), so the live
 * consumer and `analytics:rebuild` agree.
 */
export function reduce(state: ChatAnalyticsState, input: AnalyticsInput): { state: ChatAnalyticsState; increments: Increment[] } {
  const out: Increment[] = [];
  let next = { ...state };
  switch (input.kind) {
    case 'message_in': {
      const c: Record<string, number> = { msg_in: 1, [hourCounterOf(input.at)]: 1 };
      if (next.opened_at === null) {
        next = { opened_at: input.at, waiting_since: input.at, responded: false };
        c.conv_opened = 1;
      } else if (next.waiting_since === null) next.waiting_since = input.at;
      out.push(...incs(chatDims(input.chat, input.chat.assigned_to), input.at, c));
      if (input.chat.chat_type === 'group' && input.author) out.push(...incs([['gauthor', `${input.chat.chat_id}|${input.author}`]], input.at, { msg_in: 1 }));
      break;
    }
    case 'message_out': {
      const c: Record<string, number> = { msg_out: 1, [hourCounterOf(input.at)]: 1 };
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
      out.push(...incs(chatDims(input.chat, input.member ?? input.chat.assigned_to), input.at, c));
      break;
    }
    case 'chat_closed': {
      const c: Record<string, number> = { conv_closed: 1 };
      if (next.opened_at !== null) {
        c.res_sum = Math.max(0, input.at - next.opened_at);
        c.res_count = 1;
      }
      next = { ...EMPTY_STATE };
      out.push(...incs(chatDims(input.chat, input.chat.assigned_to ?? input.by), input.at, c));
      break;
    }
    case 'chat_assigned':
      out.push(...incs([['org', '_'], ['member', input.to.toLowerCase()]], input.at, { assigned: 1 }));
      break;
    case 'ticket_created':
    case 'ticket_resolved': {
      const key = input.kind === 'ticket_created' ? 'tickets_created' : 'tickets_resolved';
      const dims: Array<[Dimension, string]> = [['org', '_'], ['phone', input.phone_id]];
      if (input.assignee) dims.push(['member', input.assignee.toLowerCase()]);
      out.push(...incs(dims, input.at, { [key]: 1 }));
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
