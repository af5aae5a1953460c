import { describe, expect, it } from 'vitest';
import { nextAck, statusToAck, deliveryInfoFor } from './ack.rules.ts';

describe('ack rules (statuses apply monotonically, failed is terminal)', () => {
  it('maps Cloud API statuses to acks', () => {
    expect(['sent', 'delivered', 'read', 'played', 'failed', 'deleted'].map(statusToAck)).toEqual([1, 2, 3, 4, -1, undefined]);
  });
  it('never moves backwards', () => {
    expect(nextAck(3, 2)).toBe(3);
    expect(nextAck(0, 2)).toBe(2);
    expect(nextAck(1, 3)).toBe(3);
  });
  it('failed wins before delivery, not after; and stays', () => {
    expect(nextAck(1, -1)).toBe(-1);
    expect(nextAck(2, -1)).toBe(2);
    expect(nextAck(-1, 3)).toBe(-1);
  });
  it('delivery_info follows the ack', () => {
    expect(deliveryInfoFor(0)).toEqual({ read_count: 0, delivered_count: 0, pending: 1 });
    expect(deliveryInfoFor(2)).toEqual({ read_count: 0, delivered_count: 1, pending: 0 });
    expect(deliveryInfoFor(3)).toEqual({ read_count: 1, delivered_count: 1, pending: 0 });
    expect(deliveryInfoFor(-1)).toEqual({ read_count: 0, delivered_count: 0, pending: 0 });
  });
});
