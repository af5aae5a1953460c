import { describe, expect, it } from 'vitest';
import { DEFAULT_ORG_CLOCK, businessMsBetween } from '../org/business-hours.rules.ts';
import { dueAfter } from './business-time.rules.ts';

const MIN = 60_000;
const H = 60 * MIN;

describe('dueAfter (rule timers in business time)', () => {
  it('calendar time when business hours are not asked for', () => {
    const from = Date.UTC(2026, 10, 27, 16, 30); // Friday 16:30 UTC
    expect(dueAfter(DEFAULT_ORG_CLOCK, from, 60 * MIN, false)).toBe(from + 60 * MIN);
  });

  it('inside one open stretch it is plain addition', () => {
    const from = Date.UTC(2026, 10, 23, 10, 15, 30); // Monday 10:15:30 UTC
    expect(dueAfter(DEFAULT_ORG_CLOCK, from, 90 * MIN, true)).toBe(from + 90 * MIN);
  });

  it('pauses over the night and the weekend (Friday 16:30 + 60 business minutes = Monday 09:30)', () => {
    const from = Date.UTC(2026, 10, 27, 16, 30);
    const due = dueAfter(DEFAULT_ORG_CLOCK, from, 60 * MIN, true);
    expect(due).toBe(Date.UTC(2026, 10, 30, 9, 30));
    expect(businessMsBetween(DEFAULT_ORG_CLOCK, from, due)).toBe(60 * MIN);
  });

  it('starts at the next opening when asked while closed, in the org zone', () => {
    const kolkata = { ...DEFAULT_ORG_CLOCK, time_zone: 'Asia/Kolkata' };
    const from = Date.UTC(2026, 10, 24, 1, 0); // Tuesday 06:30 in Kolkata
    expect(dueAfter(kolkata, from, 2 * H, true)).toBe(Date.UTC(2026, 10, 24, 5, 30)); // 11:00 local
  });

  it('spans several days and agrees with businessMsBetween', () => {
    const from = Date.UTC(2026, 10, 23, 12, 7);
    const due = dueAfter(DEFAULT_ORG_CLOCK, from, 20 * H, true);
    expect(businessMsBetween(DEFAULT_ORG_CLOCK, from, due)).toBe(20 * H);
    expect(due).toBe(Date.UTC(2026, 10, 25, 16, 7)); // 4h53 Mon + 8h Tue + 7h07 Wed
  });

  it('a week without hours falls back to calendar time', () => {
    const never = { ...DEFAULT_ORG_CLOCK, business_hours: { sun: null, mon: null, tue: null, wed: null, thu: null, fri: null, sat: null } };
    expect(dueAfter(never, 1000, 5 * MIN, true)).toBe(1000 + 5 * MIN);
  });
});
