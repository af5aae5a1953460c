import { describe, expect, it } from 'vitest';
import type { Notification } from '#shared/notification/notification.schemas.ts';
import { markReadLocally, notificationHref, unreadBadge, upsertNotifications } from './list.ts';

/** The bell's list: newest first, merged by id, read marks, links and the badge. */
const n = (id: string, extra: Partial<Notification> = {}): Notification => ({
  org_id: 'o',
  email: 'me@x.com',
  notification_id: `ntf_${id}`,
  kind: 'mention',
  title: 'Ann mentioned you',
  body: 'hi',
  chat_id: '1@c.us',
  unique_id: null,
  actor: 'ann@x.com',
  created_at: 1,
  read_at: null,
  ...extra,
});

describe('notification list', () => {
  it('keeps newest first and shows a notification once', () => {
    const list = upsertNotifications([n('01B')], [n('01A'), n('01C'), n('01B', { title: 'newer copy' })]);
    expect(list.map((x) => x.notification_id)).toEqual(['ntf_01C', 'ntf_01B', 'ntf_01A']);
    expect(list[1]!.title).toBe('newer copy');
  });

  it('does not make a read notification unread again from an older snapshot', () => {
    expect(upsertNotifications([n('01A', { read_at: 5 })], [n('01A')])[0]!.read_at).toBe(5);
  });

  it('marks by id or all, counting only the unread ones', () => {
    const list = [n('01C'), n('01B', { read_at: 2 }), n('01A')];
    const one = markReadLocally(list, ['ntf_01A', 'ntf_01B'], 9);
    expect(one.changed).toBe(1);
    expect(one.list.map((x) => x.read_at)).toEqual([null, 2, 9]);
    const all = markReadLocally(list, 'all', 9);
    expect([all.changed, all.list.map((x) => x.read_at)]).toEqual([2, [9, 2, 9]]);
  });

  it('links to the chat, showing the message when known', () => {
    expect(notificationHref({ chat_id: '15550001@c.us', unique_id: '01X' })).toBe('/chats/15550001%40c.us?message=01X');
    expect(notificationHref({ chat_id: '15550001@c.us', unique_id: null })).toBe('/chats/15550001%40c.us');
    expect(notificationHref({ chat_id: null, unique_id: '01X' })).toBeNull();
  });

  it('badge text', () => {
    expect([unreadBadge(0), unreadBadge(7), unreadBadge(100)]).toEqual(['', '7', '99+']);
  });
});
