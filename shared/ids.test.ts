import { describe, expect, it } from 'vitest';
import { decodeTime, isValid } from 'ulid';
import { fastMonotonicUlid, fastUlid, pooledPrng } from './ids.ts';

describe('fast ULIDs', () => {
  it('are valid ULIDs with the given time, and unique across pool refills', () => {
    const ids = Array.from({ length: 2_000 }, () => fastUlid(1_700_000_000_000));
    expect(ids.every(isValid)).toBe(true);
    expect(decodeTime(ids[0]!)).toBe(1_700_000_000_000);
    expect(new Set(ids).size).toBe(ids.length);
  });
  it('the PRNG gives fractions in [0, 1) over every byte value', () => {
    const xs = Array.from({ length: 10_000 }, pooledPrng);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBe(256);
  });
  it('the monotonic factory increases within one millisecond', () => {
    const id = fastMonotonicUlid();
    const a = id(5);
    const b = id(5);
    expect(b > a).toBe(true);
  });
});
