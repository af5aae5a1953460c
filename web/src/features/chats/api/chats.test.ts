import { describe, expect, it } from 'vitest';
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { chatMatchesFilter, filterFromSearch, filterKey, filterParams, hasFilterParams, upsertChats, withFilterParams } from './chats.ts';
import { snoozePresets } from '../components/SnoozeMenu.tsx';

const NOW = Date.UTC(2025, 4, 14, 10, 30); // a Wednesday
const chat = (over: Partial<Chat> = {}): Chat => ({
  org_id: 'o',
  chat_id: '1@c.us',
  chat_type: 'user',
  org_phone: '15550001',
  phone_id: 'p',
  latest_message_timestamp: NOW - 60_000,
  latest_message: { unique_id: 'm1', message_type: 'text', from_me: false, ack: 0, timestamp: NOW - 60_000 },
  inbox_state: 'open',
  ...over,
});

describe('filters in the URL', () => {
  it('round-trips every filter and leaves other parameters alone', () => {
    const f = { state: 'snoozed' as const, unread: true, assignee: 'me', label_id: 'lbl_1', phone: '15550001', type: 'group' as const };
    const q = withFilterParams(new URLSearchParams('message=abc'), f);
    expect(q.get('message')).toBe('abc');
    expect(filterFromSearch(q)).toEqual(f);
    expect(hasFilterParams(q)).toBe(true);
  });

  it('leaves defaults out and ignores malformed values', () => {
    expect(filterParams({ state: 'open' })).toEqual({});
    expect(filterKey({ state: 'open' })).toBe('');
    expect(filterFromSearch(new URLSearchParams('state=bogus&unread=maybe&phone=12&type=x'))).toEqual({ state: 'open' });
    expect(hasFilterParams(new URLSearchParams('message=1'))).toBe(false);
    // a property filter needs both its id and its value
    expect(filterFromSearch(new URLSearchParams('property_id=prp_1&property_value=gold'))).toEqual({ state: 'open', property_id: 'prp_1', property_value: 'gold' });
    expect(filterFromSearch(new URLSearchParams('property_id=prp_1'))).toEqual({ state: 'open' });
    expect(filterParams({ state: 'open', property_id: 'prp_1' })).toEqual({});
  });
});

describe('a pushed chat enters or leaves the filtered list', () => {
  const me = 'me@x.io';
  it('follows the folder, assignee, label, unread, phone and type', () => {
    expect(chatMatchesFilter(chat(), { state: 'open' }, me, NOW)).toBe(true);
    expect(chatMatchesFilter(chat({ inbox_state: 'closed' }), { state: 'open' }, me, NOW)).toBe(false);
    expect(chatMatchesFilter(chat({ assigned_to: 'ME@x.io' }), { state: 'open', assignee: 'me' }, me, NOW)).toBe(true);
    expect(chatMatchesFilter(chat({ assigned_to: 'other@x.io' }), { state: 'open', assignee: 'none' }, me, NOW)).toBe(false);
    expect(chatMatchesFilter(chat(), { state: 'open', assignee: 'none' }, me, NOW)).toBe(true);
    expect(chatMatchesFilter(chat({ label_ids: ['a'] }), { state: 'open', label_id: 'a' }, me, NOW)).toBe(true);
    expect(chatMatchesFilter(chat({ label_ids: [] }), { state: 'open', label_id: 'a' }, me, NOW)).toBe(false);
    const prop = { state: 'open' as const, property_id: 'prp_1', property_value: 'Pune' };
    expect(chatMatchesFilter(chat({ custom_properties: { prp_1: ' pune' } }), prop, me, NOW)).toBe(true);
    expect(chatMatchesFilter(chat({ custom_properties: { prp_1: 'Delhi' } }), prop, me, NOW)).toBe(false);
    expect(chatMatchesFilter(chat(), prop, me, NOW)).toBe(false);
    expect(chatMatchesFilter(chat({ marked_unread: true }), { state: 'open', unread: true }, me, NOW)).toBe(true);
    expect(chatMatchesFilter(chat({ message_unread_count: 0 }), { state: 'open', unread: true }, me, NOW)).toBe(false);
    expect(chatMatchesFilter(chat(), { state: 'open', phone: '15550002' }, me, NOW)).toBe(false);
    expect(chatMatchesFilter(chat(), { state: 'open', type: 'group' }, me, NOW)).toBe(false);
  });

  it("hides a chat closed for me from All, and falls back to the chat's facts without inbox_state", () => {
    expect(chatMatchesFilter(chat({ closed_for_me_at: NOW }), { state: 'open' }, me, NOW)).toBe(false);
    expect(chatMatchesFilter(chat({ inbox_state: null, snooze_metadata: { snooze_until: NOW + 1000 } }), { state: 'snoozed' }, me, NOW)).toBe(true);
  });

  it('checks only folder, phone and type of a no-access stub', () => {
    const stub = chat({ has_access: false, label_ids: undefined });
    expect(chatMatchesFilter(stub, { state: 'open', label_id: 'a', assignee: 'me' }, me, NOW)).toBe(true);
    expect(chatMatchesFilter(stub, { state: 'closed' }, me, NOW)).toBe(false);
  });
});

describe('merging pushed chats', () => {
  it('keeps my pin and my close-for-me while the latest message is the same', () => {
    const mine = chat({ is_pinned: true, closed_for_me_at: NOW });
    const pushed = chat({ assigned_to: 'a@x.io' });
    delete pushed.is_pinned;
    delete pushed.closed_for_me_at;
    const [merged] = upsertChats([mine], [pushed]);
    expect(merged).toMatchObject({ assigned_to: 'a@x.io', is_pinned: true, closed_for_me_at: NOW });
  });

  it('drops close-for-me when a new message arrived', () => {
    const mine = chat({ is_pinned: true, closed_for_me_at: NOW });
    const pushed = chat({ latest_message_timestamp: NOW + 1000, latest_message: { unique_id: 'm2', message_type: 'text', from_me: false, ack: 0, timestamp: NOW + 1000 } });
    const [merged] = upsertChats([mine], [pushed]);
    expect(merged.is_pinned).toBe(true);
    expect(merged.closed_for_me_at).toBeNull();
  });
});

describe('snooze presets', () => {
  it('1 hour, 3 hours, tomorrow 9:00 and next Monday 9:00 in local time', () => {
    const [h1, h3, tomorrow, monday] = snoozePresets(NOW);
    expect(h1.until - NOW).toBe(3_600_000);
    expect(h3.until - NOW).toBe(3 * 3_600_000);
    const t = new Date(tomorrow.until);
    expect([t.getHours(), t.getMinutes()]).toEqual([9, 0]);
    expect(t.getDate()).toBe(new Date(NOW + 86_400_000).getDate());
    const m = new Date(monday.until);
    expect([m.getDay(), m.getHours()]).toEqual([1, 9]);
    expect(monday.until).toBeGreaterThan(NOW);
  });
});
