import { describe, expect, it } from 'vitest';
import { editRange } from './date-range.rules.ts';

describe('date range picker (spec §9)', () => {
  const min = '2026-01-01';
  const max = '2026-11-25';
  it('clamps both ends to min and max', () => {
    expect(editRange({ from: '2026-03-01', to: '2026-03-05' }, { from: '2025-06-01' }, min, max)).toEqual({ from: min, to: '2026-03-05' });
    expect(editRange({ from: '2026-03-01', to: '2026-03-05' }, { to: '2027-01-01' }, min, max)).toEqual({ from: '2026-03-01', to: max });
  });
  it('swaps the ends when the start moves after the end', () => {
    expect(editRange({ from: '2026-03-01', to: '2026-03-05' }, { from: '2026-03-09' }, min, max)).toEqual({ from: '2026-03-05', to: '2026-03-09' });
    expect(editRange({ from: '2026-03-01', to: '2026-03-05' }, { from: '2026-03-09', to: '2026-03-02' }, min, max)).toEqual({ from: '2026-03-02', to: '2026-03-09' });
  });
  it('sets the end to the start when the end moves before it', () => {
    expect(editRange({ from: '2026-03-05', to: '2026-03-09' }, { to: '2026-03-01' }, min, max)).toEqual({ from: '2026-03-05', to: '2026-03-05' });
  });
});
