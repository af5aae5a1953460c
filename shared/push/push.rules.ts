/**
 * Pure rules of web push (issue 21): who gets a push for what, and when not.
 * Sources: spec §3 user preferences `notifications { enable_notifications, enable_mobile_notifications }`
 * (the per-device toggles: desktop devices follow the first, mobile devices the second), spec §4
 * (mute), and the push preferences of shared/user/preferences.schemas.ts.
 */
import type { PushPreferences, UserPreferences } from '../user/preferences.schemas.ts';
import type { DeviceType, PushPayload } from './push.schemas.ts';

export type PushKind = PushPayload['kind'];

/** Minutes since midnight of 'HH:MM' (24-hour). */
const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** Minutes since local midnight in `timeZone` at `nowMs` (epoch ms). Unknown zones count as UTC. */
export function localMinutes(nowMs: number, timeZone: string): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(nowMs));
  } catch {
    parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(nowMs));
  }
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/**
 * Is `nowMs` (epoch ms) inside the quiet hours? [start, end) in the user's zone; start > end spans
 * midnight (22:00–07:00); start == end means the whole day.
 */
export function inQuietHours(nowMs: number, qh: PushPreferences['quiet_hours']): boolean {
  if (!qh.enabled) return false;
  const now = localMinutes(nowMs, qh.time_zone);
  const start = minutesOf(qh.start);
  const end = minutesOf(qh.end);
  if (start === end) return true;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** spec §3: the per-device switch of this device's kind. */
export const deviceEnabled = (deviceType: DeviceType, n: UserPreferences['notifications']): boolean =>
  deviceType === 'mobile' ? n.enable_mobile_notifications : n.enable_notifications;

/** What the push is about, as far as the preferences care. */
export interface PushSubject {
  kind: PushKind;
  /** new_message only: whether the chat is assigned to the recipient, or to nobody */
  assignment?: 'me' | 'unassigned' | 'other';
  /** the chat is muted (spec §4 mute): no pushes about its messages */
  chatMuted?: boolean;
}

/**
 * Does the user want this push at all (before per-device toggles and quiet hours)?
 * New messages: never for a muted chat; 'assigned' → chats assigned to me; 'assigned_and_unassigned'
 * → also chats nobody owns; never for chats assigned to someone else. Test pushes always pass.
 */
export function wantsPush(s: PushSubject, p: PushPreferences): boolean {
  switch (s.kind) {
    case 'new_message':
      if (s.chatMuted) return false;
      if (s.assignment === 'me') return p.new_messages !== 'none';
      if (s.assignment === 'unassigned') return p.new_messages === 'assigned_and_unassigned';
      return false;
    case 'mention':
      return p.mentions;
    case 'task_reminder':
      return p.task_reminders;
    case 'ticket_assigned':
    case 'chat_assigned':
      return p.assignments;
    case 'snooze_woke':
      return p.snooze_wakeups;
    case 'test':
      return true;
  }
}

/**
 * The full decision for one device: wanted, device switch on, and not quiet hours (a test push
 * ignores quiet hours and the switch: the user asked for it on that device).
 */
export function shouldPush(s: PushSubject, prefs: UserPreferences, deviceType: DeviceType, nowMs: number): boolean {
  if (s.kind === 'test') return true;
  return wantsPush(s, prefs.push) && deviceEnabled(deviceType, prefs.notifications) && !inQuietHours(nowMs, prefs.push.quiet_hours);
}

/** A push service's answer that means the subscription is gone for good (RFC 8030 §7.3: 404, 410). */
export const isGoneStatus = (status: number): boolean => status === 404 || status === 410;

/** Text trimmed to `max` characters with an ellipsis (notification bodies stay short on lock screens). */
export const clip = (text: string, max = 140): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
