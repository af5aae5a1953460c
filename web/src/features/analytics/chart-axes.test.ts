import { describe, expect, it } from 'vitest';
import { dayRange, daySplits } from './chart-axes.ts';

const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 1000;

describe('per-day chart axis', () => {
  it('a single day (Today) spans that day only, not months', () => {
    const [min, max] = dayRange([day('2026-11-29')]);
    expect(min).toBe(day('2026-11-29') - 43_200);
    expect(max).toBe(day('2026-11-29') + 43_200);
    expect(daySplits([day('2026-11-29')], 10)).toEqual([day('2026-11-29')]);
  });

  it('a week gets a tick per day', () => {
    const week = ['23', '24', '25', '26', '27', '28', '29'].map((d) => day(`2026-11-${d}`));
    expect(dayRange(week)).toEqual([week[0]! - 43_200, week[6]! + 43_200]);
    expect(daySplits(week, 12)).toEqual(week);
  });

  it('90 days thin out to what fits, keeping the last day', () => {
    const days = Array.from({ length: 90 }, (_v, i) => day('2026-09-01') + i * 86_400);
    const ticks = daySplits(days, 10);
    expect(ticks.length).toBeLessThanOrEqual(10);
    expect(ticks.at(-1)).toBe(days.at(-1));
  });
});
