import { WEEKDAYS, isOpenAt, localTime, nextOpenAt, type OrgClock } from '../org/business-hours.rules.ts';

/**
 * Rule timers in business time (issue 17: "no reply within N minutes" and follow-ups may count
 * business hours only). Pure; built on the org clock rules of shared/org/business-hours.rules.ts
 * (`isOpenAt`, `nextOpenAt`, `localTime`) — the org's IANA zone and weekly hours.
 * Times are epoch **milliseconds**.
 */

const MINUTE = 60_000;
const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * The instant when `durationMs` of business time has passed since `fromMs`: the clock runs only
 * while the org is open (time outside its hours does not count). Calendar time (`fromMs +
 * durationMs`) when `businessOnly` is false, or when the week has no open hours at all.
 * Each open stretch is jumped over whole (its local closing time), so a 30-day duration costs a
 * few hundred Intl calls, not one per minute.
 */
export function dueAfter(clock: OrgClock, fromMs: number, durationMs: number, businessOnly: boolean): number {
  if (!businessOnly || durationMs <= 0) return fromMs + Math.max(0, durationMs);
  let left = durationMs;
  let t = fromMs;
  for (let guard = 0; guard < 2000; guard++) {
    const open = nextOpenAt(clock, t);
    if (open === null) return fromMs + durationMs;
    const lt = localTime(open, clock.time_zone);
    const day = clock.business_hours[lt.weekday];
    // minutes left in today's window (at least one: `open` is inside it)
    const stretch = day ? Math.max(1, minutesOf(day.close) - lt.minute_of_day) * MINUTE - (open % MINUTE) : MINUTE;
    if (left <= stretch) return open + left;
    left -= stretch;
    t = open + stretch;
  }
  return t + left;
}

/** `time.*` condition fields at `now` (epoch ms) in the org's zone and hours (spec: org time zone, issue 22 settings). */
export interface TimeFields {
  /** 'monday' … 'sunday' */
  weekday: string;
  /** 0 Sunday … 6 Saturday */
  weekday_number: number;
  /** 'YYYY-MM-DD' in the org's zone */
  date: string;
  /** 0–23 local */
  hour: number;
  /** open now per the org's business hours */
  business_hours: boolean;
}

const DAY_NAMES: Record<(typeof WEEKDAYS)[number], string> = { sun: 'sunday', mon: 'monday', tue: 'tuesday', wed: 'wednesday', thu: 'thursday', fri: 'friday', sat: 'saturday' };

/** The time fields of a rule's context (`time.weekday`, `time.date`, `time.hour`, `time.business_hours`). */
export function timeFields(now: number, clock: OrgClock): TimeFields {
  const lt = localTime(now, clock.time_zone);
  return { weekday: DAY_NAMES[lt.weekday], weekday_number: WEEKDAYS.indexOf(lt.weekday), date: lt.date, hour: lt.hour, business_hours: isOpenAt(clock, now) };
}
