import { describe, expect, it } from 'vitest';
import { DEFAULT_ORG_CLOCK, WeeklyHoursSchema, businessMsBetween, isOpenAt, localTime, nextOpenAt, orgClockOf, type OrgClock } from './business-hours.rules.ts';

const H = 3_600_000;
const kolkata: OrgClock = { ...DEFAULT_ORG_CLOCK, time_zone: 'Asia/Kolkata' };

describe('org clock', () => {
  it('reads local wall-clock parts in the zone (Kolkata is UTC+05:30)', () => {
    // 2026-11-25 (Wednesday) 04:00 UTC = 09:30 in Kolkata
    const t = Date.UTC(2026, 10, 25, 4, 0);
    expect(localTime(t, 'Asia/Kolkata')).toEqual({ date: '2026-11-25', weekday: 'wed', hour: 9, minute_of_day: 570 });
    expect(isOpenAt(kolkata, t)).toBe(true);
    expect(isOpenAt(DEFAULT_ORG_CLOCK, t)).toBe(false);
  });

  it('is closed on weekends and at the closing minute', () => {
    expect(isOpenAt(DEFAULT_ORG_CLOCK, Date.UTC(2026, 10, 28, 12))).toBe(false); // Saturday
    expect(isOpenAt(DEFAULT_ORG_CLOCK, Date.UTC(2026, 10, 25, 17, 0))).toBe(false);
    expect(isOpenAt(DEFAULT_ORG_CLOCK, Date.UTC(2026, 10, 25, 16, 59))).toBe(true);
  });

  it('finds the next opening: Friday evening opens Monday 09:00', () => {
    expect(nextOpenAt(DEFAULT_ORG_CLOCK, Date.UTC(2026, 10, 27, 18, 7, 13))).toBe(Date.UTC(2026, 10, 30, 9, 0));
    const open = Date.UTC(2026, 10, 25, 10, 0, 30);
    expect(nextOpenAt(DEFAULT_ORG_CLOCK, open)).toBe(open);
    const closed: OrgClock = { ...DEFAULT_ORG_CLOCK, business_hours: { sun: null, mon: null, tue: null, wed: null, thu: null, fri: null, sat: null } };
    expect(nextOpenAt(closed, open)).toBeNull();
  });

  it('counts business time only: Friday 16:00 to Monday 10:00 is 2 hours', () => {
    expect(businessMsBetween(DEFAULT_ORG_CLOCK, Date.UTC(2026, 10, 27, 16), Date.UTC(2026, 10, 30, 10))).toBe(2 * H);
    expect(businessMsBetween(DEFAULT_ORG_CLOCK, Date.UTC(2026, 10, 30, 10), Date.UTC(2026, 10, 27, 16))).toBe(0);
  });

  it('keeps local hours across a DST change (New York, 2026-11-01)', () => {
    const ny: OrgClock = { ...DEFAULT_ORG_CLOCK, time_zone: 'America/New_York' };
    // Monday 2026-11-02 09:00 EST = 14:00 UTC (the week before it was 13:00 UTC, EDT)
    expect(nextOpenAt(ny, Date.UTC(2026, 10, 1, 12))).toBe(Date.UTC(2026, 10, 2, 14));
    expect(nextOpenAt(ny, Date.UTC(2026, 9, 25, 12))).toBe(Date.UTC(2026, 9, 26, 13));
  });

  it('validates stored hours and falls back to the default for a bad row', () => {
    const bad = WeeklyHoursSchema.safeParse({ ...DEFAULT_ORG_CLOCK.business_hours, mon: { open: '18:00', close: '09:00' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['mon', 'close'], message: 'Closing time must be after opening time' });
    expect(orgClockOf({ time_zone: 'Mars/Olympus', business_hours: 'x' })).toEqual(DEFAULT_ORG_CLOCK);
    expect(orgClockOf({ time_zone: 'Asia/Kolkata' }).time_zone).toBe('Asia/Kolkata');
  });
});
