/**
 * Pure helpers for ticket lists and fields: labels of statuses and priorities, the client-side
 * match of a ticket against the list filters (so realtime upserts keep a filtered list honest),
 * the sort orders of GET /tickets, and date formats (spec §9: ranges as 'DD MMM YY').
 */
import { compareTickets as compareBySort, matchesTicketFilter, type TicketListFilter } from '#shared/ticket/ticket-list.rules.ts';
import { format, isToday, isTomorrow, isYesterday } from 'date-fns';
import type { Ticket, TicketLabel, TicketStatus } from '#shared/ticket/ticket.schemas.ts';
import { TICKET_PRIORITIES, TICKET_SORTS } from '#shared/ticket/ticket.schemas.ts';

export const STATUS_LABELS: Record<TicketStatus, string> = { open: 'Open', inprogress: 'In progress', closed: 'Closed' };
export const STATUS_OPTIONS = Object.entries(STATUS_LABELS) as Array<[TicketStatus, string]>;
export const PRIORITY_OPTIONS = Object.entries(TICKET_PRIORITIES).map(([k, v]) => [Number(k) as 1 | 2 | 3, v] as const);
export const priorityLabel = (p: number): string => TICKET_PRIORITIES[p as 1 | 2 | 3] ?? `Priority ${p}`;

export type TicketSort = (typeof TICKET_SORTS)[number];
export const SORT_LABELS: Record<TicketSort, string> = {
  created_desc: 'Newest first',
  created_asc: 'Oldest first',
  due_asc: 'Due date (soonest)',
  priority_desc: 'Priority (highest)',
  updated_desc: 'Recently updated',
};
export const isTicketSort = (s: string | null | undefined): s is TicketSort => !!s && (TICKET_SORTS as readonly string[]).includes(s);

/** The list filters as kept in the /tickets URL (strings, '' = any). */
export interface TicketFilters {
  status: string;
  priority: string;
  /** a member email, 'none' (unassigned) or 'me' */
  assignee: string;
  label: string;
  phone_id: string;
  /** yyyy-MM-dd (local), inclusive */
  due_from: string;
  due_to: string;
  q: string;
  sort: TicketSort;
}

export const EMPTY_FILTERS: TicketFilters = { status: '', priority: '', assignee: '', label: '', phone_id: '', due_from: '', due_to: '', q: '', sort: 'created_desc' };

/** yyyy-MM-dd (local) -> epoch ms at the start (or end) of that day; undefined when empty/invalid. */
export function dayToMs(day: string, end = false): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number);
  const t = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d);
  return Number.isNaN(t.getTime()) ? undefined : t.getTime();
}

/** epoch ms -> yyyy-MM-dd (local), for <input type="date">. */
export const msToDay = (ms: number | null | undefined): string => (ms ? format(ms, 'yyyy-MM-dd') : '');

/** A due date from a date input: the end of that local day (a ticket due 'today' is due until midnight). */
export const dueFromDay = (day: string): number | null => dayToMs(day, true) ?? null;

/**
 * Does a ticket pass the filters? The API's rule (shared/ticket/ticket-list.rules.ts) on the
 * filters as the API reads them, plus the subject search as a substring (the API's search index
 * is not in the browser). `me` is the signed-in member's email ('me' filter).
 */
export function matchesFilters(t: Ticket, f: TicketFilters, me: string): boolean {
  const assignee = f.assignee.trim().toLowerCase();
  const rule: TicketListFilter = {
    status: (f.status || undefined) as TicketListFilter['status'],
    priority: f.priority ? Number(f.priority) : undefined,
    assignee: assignee === 'me' ? me.toLowerCase() : assignee || undefined,
    label: f.label || undefined,
    phone_id: f.phone_id || undefined,
    due_from: dayToMs(f.due_from),
    due_to: dayToMs(f.due_to, true),
  };
  if (!matchesTicketFilter(t, rule)) return false;
  if (f.q.trim() && !t.subject.toLowerCase().includes(f.q.trim().toLowerCase())) return false;
  return true;
}

/** The order of a sort: the API's comparator (ties newest first, no due date last). */
export const compareTickets = (sort: TicketSort): ((a: Ticket, b: Ticket) => number) => compareBySort(sort);

/** Keep the newer snapshot of a ticket (events can arrive after a fresher PATCH answer). */
export const newerTicket = (a: Ticket | undefined, b: Ticket): Ticket => (a && a.last_updated_at > b.last_updated_at ? a : b);

/** Merge pages (any order) into a list without duplicates, keeping the server's order for known rows. */
export function appendTickets(list: Ticket[], page: Ticket[]): Ticket[] {
  const seen = new Map(list.map((t, i) => [t.ticket_id, i]));
  const out = list.slice();
  for (const t of page) {
    const i = seen.get(t.ticket_id);
    if (i === undefined) {
      seen.set(t.ticket_id, out.length);
      out.push(t);
    } else out[i] = newerTicket(out[i], t);
  }
  return out;
}

/**
 * A realtime or local change of one ticket applied to a filtered, sorted list: replaced in place
 * when it still matches, removed when it no longer does, inserted at its sorted place when new.
 */
export function applyTicket(list: Ticket[], t: Ticket, f: TicketFilters, me: string): Ticket[] {
  const i = list.findIndex((x) => x.ticket_id === t.ticket_id);
  const next = i >= 0 ? newerTicket(list[i], t) : t;
  if (i >= 0 && next === list[i]) return list;
  if (!matchesFilters(next, f, me)) return i >= 0 ? list.filter((x) => x.ticket_id !== t.ticket_id) : list;
  if (i >= 0) {
    const out = list.slice();
    out[i] = next;
    return out;
  }
  const cmp = compareTickets(f.sort);
  const at = list.findIndex((x) => cmp(next, x) < 0);
  const out = list.slice();
  out.splice(at < 0 ? out.length : at, 0, next);
  return out;
}

/** Upsert into a chat's ticket list (open first). */
export function upsertChatTicket(list: Ticket[], t: Ticket): Ticket[] {
  const i = list.findIndex((x) => x.ticket_id === t.ticket_id);
  if (i < 0) return [...list, t];
  const next = newerTicket(list[i], t);
  if (next === list[i]) return list;
  const out = list.slice();
  out[i] = next;
  return out;
}

/** 'DD MMM YY' (spec §9) */
export const shortDate = (ms: number): string => format(ms, 'dd MMM yy');

/** Due date in words: 'Today', 'Tomorrow', 'Yesterday', else 'DD MMM YY'. */
export function dueText(ms: number): string {
  if (isToday(ms)) return 'Today';
  if (isTomorrow(ms)) return 'Tomorrow';
  if (isYesterday(ms)) return 'Yesterday';
  return shortDate(ms);
}

export const isOverdue = (t: Pick<Ticket, 'due_date' | 'status'>, now = Date.now()): boolean => t.status !== 'closed' && t.due_date !== null && t.due_date < now;

/** Dark or white text on a label colour, whichever contrasts more (WCAG relative luminance). */
export function labelTextColor(hex: string): string {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return '#111b21';
  const lin = (x: string) => {
    const c = parseInt(x, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const L = 0.2126 * lin(m[1]) + 0.7152 * lin(m[2]) + 0.0722 * lin(m[3]);
  const dark = 0.0118; // luminance of #111b21
  const onWhite = 1.05 / (L + 0.05);
  const onDark = (L + 0.05) / (dark + 0.05);
  return onDark >= onWhite ? '#111b21' : '#ffffff';
}

export const labelMap = (labels: TicketLabel[] | undefined): Map<string, TicketLabel> => new Map((labels ?? []).map((l) => [l.label_id, l]));

/** Short human reference of a ticket id ('#7F3K2A'). */
export const ticketRef = (id: string): string => `#${id.slice(-6).toUpperCase()}`;

/** Relative time in the spec's words ('a few seconds ago', 'a min ago', '5 minutes ago', ...). */
export function relTime(ms: number, now = Date.now()): string {
  const s = Math.round((now - ms) / 1000);
  if (s < 45) return 'a few seconds ago';
  if (s < 90) return 'a min ago';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} mins ago`;
  const h = Math.round(m / 60);
  if (h < 24) return h === 1 ? 'an hour ago' : `${h} hours ago`;
  const d = Math.round(h / 24);
  if (d < 7) return d === 1 ? 'a day ago' : `${d} days ago`;
  return shortDate(ms);
}

/** A duration in words ('4 min', '2 h 5 min', '3 d 1 h'). */
export function durationText(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60000));
  if (m < 1) return 'under a minute';
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}
