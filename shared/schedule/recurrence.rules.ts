import { z } from 'zod';
import { TZDate } from '@date-fns/tz';

/**
 * Recurrence of scheduled messages (issue 16 item 6), pure and in the org's time zone
 * (shared/org/org-clock.ts `getOrgClock(orgId).time_zone`): one-time, daily, weekly on chosen days,
 * or monthly on the start date's day (months without that day: their last day), at a local
 * wall-clock time, ending never, after N occurrences, or on a date (inclusive).
 * Wall-clock times that do not exist (the spring-forward gap) move forward by the gap, ambiguous ones
 * (fall-back) take the first instant (@date-fns/tz TZDate). All instants are epoch ms.
 */

const DateStr = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD').refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'is not a real date');
const TimeStr = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM (24 h)');

export const RecurrenceEnd = z.discriminatedUnion('type', [
  z.object({ type: z.literal('never') }),
  z.object({ type: z.literal('after'), count: z.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000') }),
  z.object({ type: z.literal('on'), date: DateStr }),
]);

export const Recurrence = z
  .object({
    kind: z.enum(['once', 'daily', 'weekly', 'monthly']),
    /** the first (or only) date, local to the org */
    start_date: DateStr,
    /** local wall-clock time */
    time: TimeStr,
    /** weekly: days 0 (Sunday) – 6 (Saturday) */
    weekdays: z.array(z.number().int().min(0).max(6)).max(7).optional(),
    end: RecurrenceEnd.default({ type: 'never' }),
  })
  .superRefine((r, ctx) => {
    if (r.kind === 'weekly' && !r.weekdays?.length) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['weekdays'], message: 'pick at least one day' });
    if (r.end.type === 'on' && r.end.date < r.start_date) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['end', 'date'], message: 'must not be before the start date' });
  });
export type Recurrence = z.infer<typeof Recurrence>;

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (y: number, m: number, d: number) => `${y}-${pad(m + 1)}-${pad(d)}`;
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();

/** The instant of a local date + time in `tz` (epoch ms). */
export function zonedInstant(date: string, time: string, tz: string): number {
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  return new TZDate(y, mo - 1, d, h, mi, 0, 0, tz).getTime();
}

/** The local calendar date (YYYY-MM-DD) of an instant in `tz`. */
export function localDate(atMs: number, tz: string): string {
  const t = new TZDate(atMs, tz);
  return ymd(t.getFullYear(), t.getMonth(), t.getDate());
}

/** Local dates of the pattern from the start date on (ascending; capped at `limit` candidates). */
function* candidateDates(r: Recurrence, fromDate: string): Generator<string> {
  const [sy, sm, sd] = r.start_date.split('-').map(Number);
  const start = Date.UTC(sy, sm - 1, sd);
  const [fy, fm, fd] = fromDate.split('-').map(Number);
  const from = Math.max(start, Date.UTC(fy, fm - 1, fd));
  if (r.kind === 'once') {
    if (from <= start) yield r.start_date;
    return;
  }
  if (r.kind === 'monthly') {
    const f = new Date(from);
    let y = f.getUTCFullYear();
    let m = f.getUTCMonth();
    for (let i = 0; i < 1200; i++) {
      const day = Math.min(sd, daysIn(y, m));
      const at = Date.UTC(y, m, day);
      if (at >= from) yield ymd(y, m, day);
      m++;
      if (m === 12) {
        m = 0;
        y++;
      }
    }
    return;
  }
  for (let at = from, i = 0; i < 366 * 30; at += 86_400_000, i++) {
    const d = new Date(at);
    if (r.kind === 'weekly' && !r.weekdays!.includes(d.getUTCDay())) continue;
    yield ymd(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  }
}

/**
 * The first occurrence strictly after `afterMs` (epoch ms), or null when the recurrence has ended:
 * a one-time message already past, `end.on` passed (the end date's occurrence is included), or
 * `end.after` reached (`done` = occurrences already used: fired or skipped).
 */
export function nextOccurrence(r: Recurrence, tz: string, afterMs: number, done = 0): number | null {
  if (r.end.type === 'after' && done >= r.end.count) return null;
  // one day of slack: the local date of `afterMs` may be a day behind or ahead of UTC's
  const from = localDate(afterMs - 86_400_000, tz);
  for (const date of candidateDates(r, from)) {
    if (r.end.type === 'on' && date > r.end.date) return null;
    const at = zonedInstant(date, r.time, tz);
    if (at > afterMs) return at;
  }
  return null;
}

/** The next `n` occurrences after `afterMs` (previews: "next: Mon 09:00, Tue 09:00…"). */
export function upcoming(r: Recurrence, tz: string, afterMs: number, done = 0, n = 3): number[] {
  const out: number[] = [];
  let at = afterMs;
  for (let i = 0; i < n; i++) {
    const next = nextOccurrence(r, tz, at, done + i);
    if (next == null) break;
    out.push(next);
    at = next;
  }
  return out;
}

/** A short description: "Once on 2026-11-30 at 09:00", "Every Mon, Wed at 09:00, 5 times", "Monthly on day 31 at 18:30 until 2027-03-01". */
export function describeRecurrence(r: Recurrence): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const base =
    r.kind === 'once'
      ? `Once on ${r.start_date} at ${r.time}`
      : r.kind === 'daily'
        ? `Every day at ${r.time}`
        : r.kind === 'weekly'
          ? `Every ${[...(r.weekdays ?? [])].sort().map((d) => days[d]).join(', ')} at ${r.time}`
          : `Monthly on day ${Number(r.start_date.slice(8))} at ${r.time}`;
  if (r.kind === 'once' || r.end.type === 'never') return base;
  return r.end.type === 'after' ? `${base}, ${r.end.count} time${r.end.count === 1 ? '' : 's'}` : `${base} until ${r.end.date}`;
}
