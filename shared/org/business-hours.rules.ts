import { z } from 'zod';

/**
 * The org's clock: its IANA time zone and weekly business hours (settings/general, issue 22).
 * Pure rules read by rules (`time.business_hours`, SLA timers), analytics (days in the org's zone)
 * and the general settings page. Stored on the Organization row as `time_zone` and
 * `business_hours` (shared/org/organization.entity.ts); unset means UTC, Monday–Friday 09:00–17:00.
 *
 * Times are epoch **milliseconds**; `open`/`close` are 'HH:MM' (24-hour) local wall-clock times,
 * `open` inclusive and `close` exclusive. A closed day is `null`. No overnight windows
 * (`close` must be after `open`).
 */

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface DayHours {
  open: string;
  close: string;
}
export type WeeklyHours = Record<Weekday, DayHours | null>;

export interface OrgClock {
  /** IANA zone, e.g. 'Asia/Kolkata' */
  time_zone: string;
  business_hours: WeeklyHours;
}

const NINE_TO_FIVE: DayHours = { open: '09:00', close: '17:00' };
/** The default until an admin sets the general settings: UTC, Monday–Friday 09:00–17:00. */
export const DEFAULT_ORG_CLOCK: OrgClock = {
  time_zone: 'UTC',
  business_hours: { sun: null, mon: NINE_TO_FIVE, tue: NINE_TO_FIVE, wed: NINE_TO_FIVE, thu: NINE_TO_FIVE, fri: NINE_TO_FIVE, sat: null },
};

/** True when Intl knows the IANA zone name. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const minutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** zod: an IANA time zone ('time_zone': 'Unknown time zone'). */
export const TimeZoneSchema = z.string().refine(isTimeZone, { message: 'Unknown time zone' });

/** zod: one day's window, 'HH:MM' to 'HH:MM', close after open. */
export const DayHoursSchema = z
  .object({ open: z.string().regex(HHMM, 'Use HH:MM (24-hour)'), close: z.string().regex(HHMM, 'Use HH:MM (24-hour)') })
  .strict()
  .refine((d) => minutes(d.close) > minutes(d.open), { message: 'Closing time must be after opening time', path: ['close'] });

/** zod: the whole week; every day present, `null` for closed. */
export const WeeklyHoursSchema = z.object(Object.fromEntries(WEEKDAYS.map((d) => [d, DayHoursSchema.nullable()])) as Record<Weekday, z.ZodNullable<typeof DayHoursSchema>>).strict();

/** The org's clock from its stored row; missing or malformed fields fall back to the default. */
export function orgClockOf(org: { time_zone?: unknown; business_hours?: unknown } | null | undefined): OrgClock {
  const tz = typeof org?.time_zone === 'string' && isTimeZone(org.time_zone) ? org.time_zone : DEFAULT_ORG_CLOCK.time_zone;
  const hours = WeeklyHoursSchema.safeParse(org?.business_hours);
  return { time_zone: tz, business_hours: hours.success ? (hours.data as WeeklyHours) : DEFAULT_ORG_CLOCK.business_hours };
}

export interface LocalTime {
  /** 'YYYY-MM-DD' in the zone */
  date: string;
  weekday: Weekday;
  /** 0–23 */
  hour: number;
  /** minutes after local midnight, 0–1439 */
  minute_of_day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Wall-clock parts of `atMs` (epoch ms) in `timeZone` (Intl, DST-aware). */
export function localTime(atMs: number, timeZone: string): LocalTime {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(atMs)).map((x) => [x.type, x.value]));
  const hour = Number(p.hour);
  return {
    date: `${p.year}-${p.month}-${p.day}`,
    weekday: String(p.weekday).slice(0, 3).toLowerCase() as Weekday,
    hour,
    minute_of_day: hour * 60 + Number(p.minute),
  };
}

/** Is the business open at `atMs` (epoch ms)? */
export function isOpenAt(clock: OrgClock, atMs: number): boolean {
  const t = localTime(atMs, clock.time_zone);
  const day = clock.business_hours[t.weekday];
  return !!day && t.minute_of_day >= minutes(day.open) && t.minute_of_day < minutes(day.close);
}

const MINUTE = 60_000;

/**
 * The first moment at or after `fromMs` when the business is open (epoch ms, minute precision);
 * `fromMs` itself when open now; null when no day of the week has hours.
 * Walks minute boundaries of at most 8 days, so it stays right across DST changes.
 */
export function nextOpenAt(clock: OrgClock, fromMs: number): number | null {
  if (!WEEKDAYS.some((d) => clock.business_hours[d])) return null;
  if (isOpenAt(clock, fromMs)) return fromMs;
  let t = Math.ceil(fromMs / MINUTE) * MINUTE;
  const limit = fromMs + 8 * 24 * 60 * MINUTE;
  // jump by whole hours while far from an opening, then by minutes
  while (t <= limit) {
    if (isOpenAt(clock, t)) return t;
    const lt = localTime(t, clock.time_zone);
    const day = clock.business_hours[lt.weekday];
    const untilOpen = day && lt.minute_of_day < minutes(day.open) ? minutes(day.open) - lt.minute_of_day : 60 - (lt.minute_of_day % 60);
    t += Math.max(1, untilOpen) * MINUTE;
  }
  return null;
}

/**
 * Business time between two instants (ms): the part of [fromMs, toMs) when the business is open,
 * at minute precision. For SLA clocks that pause outside business hours. 0 when toMs <= fromMs.
 */
export function businessMsBetween(clock: OrgClock, fromMs: number, toMs: number): number {
  if (toMs <= fromMs) return 0;
  let total = 0;
  let t = fromMs;
  while (t < toMs) {
    const open = nextOpenAt(clock, t);
    if (open === null || open >= toMs) break;
    // walk the open stretch minute by minute up to its close (or toMs)
    let end = Math.min(toMs, Math.floor(open / MINUTE) * MINUTE + MINUTE);
    while (end < toMs && isOpenAt(clock, end)) end = Math.min(toMs, end + MINUTE);
    total += end - open;
    t = end;
  }
  return total;
}
