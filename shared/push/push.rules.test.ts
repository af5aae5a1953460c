import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_PREFERENCES, mergePreferences } from '../user/preferences.schemas.ts';
import { deviceEnabled, inQuietHours, isGoneStatus, shouldPush, wantsPush } from './push.rules.ts';
import { deviceIdOf, SubscribeInput } from './push.schemas.ts';

const at = (iso: string) => Date.parse(iso);
const qh = (start: string, end: string, time_zone = 'UTC') => ({ enabled: true, start, end, time_zone });

describe('quiet hours', () => {
  it('spans midnight when start > end, in the user zone', () => {
    expect(inQuietHours(at('2026-11-25T23:30:00Z'), qh('22:00', '07:00'))).toBe(true);
    expect(inQuietHours(at('2026-11-25T06:59:00Z'), qh('22:00', '07:00'))).toBe(true);
    expect(inQuietHours(at('2026-11-25T07:00:00Z'), qh('22:00', '07:00'))).toBe(false);
    // 17:00 UTC is 22:30 in Kolkata (UTC+5:30)
    expect(inQuietHours(at('2026-11-25T17:00:00Z'), qh('22:00', '07:00', 'Asia/Kolkata'))).toBe(true);
    expect(inQuietHours(at('2026-11-25T17:00:00Z'), qh('22:00', '07:00', 'UTC'))).toBe(false);
  });
  it('a same-day window, the whole day when start == end, and off when disabled', () => {
    expect(inQuietHours(at('2026-11-25T13:00:00Z'), qh('12:00', '14:00'))).toBe(true);
    expect(inQuietHours(at('2026-11-25T14:00:00Z'), qh('12:00', '14:00'))).toBe(false);
    expect(inQuietHours(at('2026-11-25T09:00:00Z'), qh('00:00', '00:00'))).toBe(true);
    expect(inQuietHours(at('2026-11-25T13:00:00Z'), { ...qh('12:00', '14:00'), enabled: false })).toBe(false);
  });
});

describe('what a user wants pushed', () => {
  const p = DEFAULT_USER_PREFERENCES.push;
  it('new messages: assigned to me by default, unassigned only when asked, never someone else or a muted chat', () => {
    expect(wantsPush({ kind: 'new_message', assignment: 'me' }, p)).toBe(true);
    expect(wantsPush({ kind: 'new_message', assignment: 'unassigned' }, p)).toBe(false);
    expect(wantsPush({ kind: 'new_message', assignment: 'unassigned' }, { ...p, new_messages: 'assigned_and_unassigned' })).toBe(true);
    expect(wantsPush({ kind: 'new_message', assignment: 'other' }, { ...p, new_messages: 'assigned_and_unassigned' })).toBe(false);
    expect(wantsPush({ kind: 'new_message', assignment: 'me', chatMuted: true }, p)).toBe(false);
    expect(wantsPush({ kind: 'new_message', assignment: 'me' }, { ...p, new_messages: 'none' })).toBe(false);
  });
  it('each other kind follows its switch', () => {
    expect(wantsPush({ kind: 'mention' }, { ...p, mentions: false })).toBe(false);
    expect(wantsPush({ kind: 'task_reminder' }, { ...p, task_reminders: false })).toBe(false);
    expect(wantsPush({ kind: 'ticket_assigned' }, { ...p, assignments: false })).toBe(false);
    expect(wantsPush({ kind: 'snooze_woke' }, { ...p, snooze_wakeups: false })).toBe(false);
    expect(wantsPush({ kind: 'mention' }, p)).toBe(true);
  });
});

describe('per-device switches (spec §3) and the whole decision', () => {
  it('desktop follows enable_notifications, mobile enable_mobile_notifications', () => {
    const n = { enable_notifications: false, enable_mobile_notifications: true };
    expect(deviceEnabled('desktop', n)).toBe(false);
    expect(deviceEnabled('mobile', n)).toBe(true);
  });
  it('shouldPush combines want, device switch and quiet hours; a test push ignores them', () => {
    const noon = at('2026-11-25T12:00:00Z');
    const prefs = mergePreferences(DEFAULT_USER_PREFERENCES, { notifications: { enable_mobile_notifications: false }, push: { quiet_hours: { enabled: true, start: '11:00', end: '13:00', time_zone: 'UTC' } } });
    expect(shouldPush({ kind: 'mention' }, prefs, 'desktop', noon)).toBe(false);
    expect(shouldPush({ kind: 'mention' }, prefs, 'desktop', at('2026-11-25T14:00:00Z'))).toBe(true);
    expect(shouldPush({ kind: 'mention' }, prefs, 'mobile', at('2026-11-25T14:00:00Z'))).toBe(false);
    expect(shouldPush({ kind: 'test' }, prefs, 'mobile', noon)).toBe(true);
  });
  it('404 and 410 mean the subscription is gone', () => {
    expect([200, 201, 400, 404, 410, 429, 500].filter(isGoneStatus)).toEqual([404, 410]);
  });
});

describe('device id (spec §7: the last path segment of the endpoint)', () => {
  it('is read from the endpoint and must match', () => {
    expect(deviceIdOf('https://fcm.googleapis.com/fcm/send/abc:DEF-123')).toBe('abc:DEF-123');
    expect(deviceIdOf('not a url')).toBe('');
    const sub = { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'BOr', auth: 'x1' } };
    expect(SubscribeInput.safeParse({ email: 'a@b.co', subscription: sub, device_id: 'abc', device_type: 'desktop' }).success).toBe(true);
    expect(SubscribeInput.safeParse({ email: 'a@b.co', subscription: sub, device_id: 'zzz', device_type: 'desktop' }).success).toBe(false);
  });
});
