import { describe, expect, it } from 'vitest';
import { windowText } from './window.ts';

describe('windowText', () => {
  const now = 1_000_000_000;
  it('says how long the window stays open', () => {
    expect(windowText({ open: true, closes_at: now + 3 * 3_600_000 + 20 * 60_000 + 5_000 }, now)).toBe('Window closes in 3 h 20 min');
    expect(windowText({ open: true, closes_at: now + 3 * 3_600_000 }, now)).toBe('Window closes in 3 h');
    expect(windowText({ open: true, closes_at: now + 12 * 60_000 }, now)).toBe('Window closes in 12 min');
    expect(windowText({ open: true, closes_at: now + 30_000 }, now)).toBe('Window closes in less than a minute');
  });
  it('says closed, or that the customer never wrote', () => {
    expect(windowText({ open: false, closes_at: now - 1 }, now)).toBe('Window closed');
    expect(windowText({ open: false, closes_at: null }, now)).toBe('No customer message yet');
  });
});
