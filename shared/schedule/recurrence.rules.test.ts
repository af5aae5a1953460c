import { describe, expect, it } from 'vitest';
import { describeRecurrence, nextOccurrence, Recurrence, upcoming, zonedInstant } from './recurrence.rules.ts';

const rec = (r: Partial<Recurrence> & Pick<Recurrence, 'kind'>) => Recurrence.parse({ start_date: '2026-03-02', time: '09:00', ...r });
const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

describe('nextOccurrence', () => {
  it('once: the date and time in the org zone, then nothing', () => {
    const r = rec({ kind: 'once', start_date: '2026-11-30', time: '18:30' });
    const at = nextOccurrence(r, 'Asia/Kolkata', Date.parse('2026-11-01T00:00:00Z'));
    expect(iso(at)).toBe('2026-11-30T13:00:00.000Z');
    expect(nextOccurrence(r, 'Asia/Kolkata', at!)).toBeNull();
  });
  it('daily across the spring-forward change keeps the wall-clock time (Europe/Lisbon, 29 Mar 2026)', () => {
    const r = rec({ kind: 'daily', start_date: '2026-03-28' });
    expect(upcoming(r, 'Europe/Lisbon', Date.parse('2026-03-27T00:00:00Z'), 0, 3).map(iso)).toEqual(['2026-03-28T09:00:00.000Z', '2026-03-29T08:00:00.000Z', '2026-03-30T08:00:00.000Z']);
  });
  it('a time inside the DST gap moves forward (New York, 8 Mar 2026 02:30 does not exist)', () => {
    expect(iso(zonedInstant('2026-03-08', '02:30', 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
  });
  it('daily across fall-back (New York, 1 Nov 2026)', () => {
    const r = rec({ kind: 'daily', start_date: '2026-10-31', time: '09:00' });
    expect(upcoming(r, 'America/New_York', Date.parse('2026-10-30T00:00:00Z'), 0, 3).map(iso)).toEqual(['2026-10-31T13:00:00.000Z', '2026-11-01T14:00:00.000Z', '2026-11-02T14:00:00.000Z']);
  });
  it('weekly on chosen days', () => {
    const r = rec({ kind: 'weekly', start_date: '2026-03-02', weekdays: [1, 3], time: '10:15' });
    expect(upcoming(r, 'UTC', Date.parse('2026-03-02T10:15:00Z'), 0, 3).map(iso)).toEqual(['2026-03-04T10:15:00.000Z', '2026-03-09T10:15:00.000Z', '2026-03-11T10:15:00.000Z']);
  });
  it('monthly on the 31st falls back to the last day of shorter months', () => {
    const r = rec({ kind: 'monthly', start_date: '2026-01-31', time: '12:00' });
    expect(upcoming(r, 'UTC', Date.parse('2026-01-01T00:00:00Z'), 0, 3).map(iso)).toEqual(['2026-01-31T12:00:00.000Z', '2026-02-28T12:00:00.000Z', '2026-03-31T12:00:00.000Z']);
  });
  it('ends after N occurrences, or on a date (inclusive)', () => {
    const after = rec({ kind: 'daily', end: { type: 'after', count: 2 } });
    expect(nextOccurrence(after, 'UTC', 0, 2)).toBeNull();
    expect(upcoming(after, 'UTC', Date.parse('2026-03-01T00:00:00Z'))).toHaveLength(2);
    const on = rec({ kind: 'daily', end: { type: 'on', date: '2026-03-03' } });
    expect(upcoming(on, 'UTC', Date.parse('2026-03-01T00:00:00Z'), 0, 5).map(iso)).toEqual(['2026-03-02T09:00:00.000Z', '2026-03-03T09:00:00.000Z']);
  });
  it('starts no earlier than the start date', () => {
    const r = rec({ kind: 'daily', start_date: '2026-06-10' });
    expect(iso(nextOccurrence(r, 'UTC', Date.parse('2026-01-01T00:00:00Z')))).toBe('2026-06-10T09:00:00.000Z');
  });
});

describe('Recurrence schema and description', () => {
  it('refuses weekly without days and an end before the start', () => {
    expect(Recurrence.safeParse({ kind: 'weekly', start_date: '2026-03-02', time: '09:00' }).success).toBe(false);
    expect(Recurrence.safeParse({ kind: 'daily', start_date: '2026-03-02', time: '9:00' }).success).toBe(false);
    expect(Recurrence.safeParse({ kind: 'daily', start_date: '2026-03-02', time: '09:00', end: { type: 'on', date: '2026-03-01' } }).success).toBe(false);
  });
  it('describes', () => {
    expect(describeRecurrence(rec({ kind: 'weekly', weekdays: [3, 1], end: { type: 'after', count: 5 } }))).toBe('Every Mon, Wed at 09:00, 5 times');
    expect(describeRecurrence(rec({ kind: 'monthly', start_date: '2026-01-31', end: { type: 'on', date: '2027-03-01' } }))).toBe('Monthly on day 31 at 09:00 until 2027-03-01');
  });
});
