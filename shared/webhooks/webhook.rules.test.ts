import { describe, expect, it } from 'vitest';
import { DISABLE_AFTER_MS, EVENT_MAP, isDelivered, MAX_ATTEMPTS, retryDelay, shouldDisable } from './webhook.rules.ts';
import { deliveryIdFor, generateSecret } from './ids.ts';

describe('webhook rules', () => {
  it('retry schedule: 5s, 5m, 30m, 2h, 5h, 10h, 10h then exhausted; scalable', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n))).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(retryDelay(MAX_ATTEMPTS)).toBeNull();
    expect(retryDelay(2, 0.001)).toBe(300);
  });

  it('disables after 5 days of continuous failure only', () => {
    expect(shouldDisable(null, Date.now())).toBe(false);
    expect(shouldDisable(1_000, 1_000 + DISABLE_AFTER_MS - 1)).toBe(false);
    expect(shouldDisable(1_000, 1_000 + DISABLE_AFTER_MS)).toBe(true);
  });

  it('2xx is delivered', () => {
    expect([200, 204, 299].every(isDelivered)).toBe(true);
    expect([199, 301, 400, 500].some(isDelivered)).toBe(false);
  });

  it('secrets are whsec_ + base64 of 32 bytes', () => {
    const s = generateSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(s.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(s);
  });

  it('delivery ids are deterministic per (event, endpoint) and sort by time', () => {
    const a = deliveryIdFor('e1', 'ep1', 1_000);
    expect(a).toBe(deliveryIdFor('e1', 'ep1', 1_000));
    expect(a).not.toBe(deliveryIdFor('e1', 'ep2', 1_000));
    expect(a).toMatch(/^msg_[0-9A-Z]{26}$/);
    expect(deliveryIdFor('e0', 'ep1', 2_000) > a).toBe(true);
  });

  it('maps bus events to public ones', () => {
    expect(EVENT_MAP['chat.updated']!({ chat: { assigned_to: 'a@b.c' }, changes: ['assigned_to'] })).toEqual(['chat.assigned']);
    expect(EVENT_MAP['chat.updated']!({ chat: { closed_at: 5 }, changes: ['closed_at'] })).toEqual(['chat.closed']);
    expect(EVENT_MAP['chat.updated']!({ chat: {}, changes: ['closed_at'] })).toEqual([]);
    expect(EVENT_MAP['message.received']!({ chat: { message_unread_count: 1 } })).toEqual(['message.received', 'chat.new_unassigned']);
    expect(EVENT_MAP['message.received']!({ chat: { assigned_to: 'a@b.c', message_unread_count: 1 } })).toEqual(['message.received']);
    expect(EVENT_MAP['notification.created']!({ notification: { kind: 'mention' } })).toEqual(['mention.created']);
    expect(EVENT_MAP['notification.created']!({ notification: { kind: 'assigned' } })).toEqual([]);
  });
});
