import { describe, expect, it } from 'vitest';
import { RecentIds } from './socket.ts';

describe('RecentIds (the socket drops an event id it already passed on)', () => {
  it('passes an id once, and forgets the oldest beyond its size', () => {
    const r = new RecentIds(2);
    expect([r.firstTime('a'), r.firstTime('a'), r.firstTime('b'), r.firstTime('c'), r.firstTime('a'), r.firstTime('c')]).toEqual([true, false, true, true, true, false]);
  });
});
