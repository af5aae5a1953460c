import { describe, expect, it } from 'vitest';
import { bucketDeltas, canCloseForMe, chatBuckets, countsFromBuckets, inboxState, isClosed, isClosedFor, isSnoozed, mergeDeltas, snoozeUntilProblem } from './chat-state.rules.ts';
import { canChangeChatAssignee, canSeeChat, maskPhone, mustMask } from './chat-access.rules.ts';

const T = 1_700_000_000_000;

describe('closed (spec §4: closed_at later than the latest message)', () => {
  it.each([
    [undefined, T, false],
    [T - 1, T, false],
    [T, T, false], // the same millisecond is not later: a message at the close time reopens
    [T + 1, T, true],
  ])('closed_at %s, latest %s -> %s', (closed_at, latest, want) => {
    expect(isClosed({ closed_at, latest_message_timestamp: latest })).toBe(want);
  });

  it('a new message reopens without touching closed_at', () => {
    const c = { closed_at: T + 10, latest_message_timestamp: T };
    expect(inboxState(c, T + 20)).toBe('closed');
    expect(inboxState({ ...c, latest_message_timestamp: T + 11 }, T + 20)).toBe('open');
  });

  it("'Close for me' is offered only while not closed, and holds until the next message", () => {
    expect(canCloseForMe({ closed_at: T + 1, latest_message_timestamp: T })).toBe(false);
    expect(canCloseForMe({ closed_at: T - 1, latest_message_timestamp: T })).toBe(true);
    const chat = { latest_message_timestamp: T, latest_message: { unique_id: 'm1' } };
    expect(isClosedFor(chat, 'm1')).toBe(true);
    // the next message, even in the same second, reopens it for the member
    expect(isClosedFor({ latest_message_timestamp: T, latest_message: { unique_id: 'm2' } }, 'm1')).toBe(false);
    expect(isClosedFor(chat, null)).toBe(false);
    expect(isClosedFor({ ...chat, closed_at: T + 1 }, null)).toBe(true);
  });
});

describe('snoozed (spec §4: while snooze_until is in the future)', () => {
  it.each([
    [T + 1, T, true],
    [T, T, false], // the moment it ends it is back
    [T - 1, T, false],
  ])('until %s at %s -> %s', (until, now, want) => {
    expect(isSnoozed({ snooze_metadata: { snooze_until: until } }, now)).toBe(want);
  });

  it('folder precedence: archived > snoozed > closed > open', () => {
    const base = { latest_message_timestamp: T, closed_at: T + 1, snooze_metadata: { snooze_until: T + 100 } };
    expect(inboxState({ ...base, is_archived: true }, T + 2)).toBe('archived');
    expect(inboxState(base, T + 2)).toBe('snoozed');
    expect(inboxState(base, T + 100)).toBe('closed');
    expect(inboxState({ latest_message_timestamp: T }, T)).toBe('open');
  });

  it('snooze times must be ahead and within a year', () => {
    expect(snoozeUntilProblem(T, T)).toBe('must be in the future');
    expect(snoozeUntilProblem(T + 1, T)).toBeNull();
    expect(snoozeUntilProblem(T + 366 * 86_400_000, T)).toBe('must be within a year');
  });
});

describe('filter counters', () => {
  const chat = { latest_message_timestamp: T, org_phone: '100', chat_type: 'user' as const, assigned_to: 'Ann@x.io', message_unread_count: 2, label_ids: ['l1', 'l2'] };

  it('a chat is counted once per filter of its folder', () => {
    expect(chatBuckets(chat, 'open').sort()).toEqual(['open', 'open#assignee#ann@x.io', 'open#label#l1', 'open#label#l2', 'open#phone#100', 'open#type#user', 'open#unread'].sort());
  });

  it('closing moves every bucket; reading changes only unread', () => {
    const before = chatBuckets(chat, 'open');
    const closed = bucketDeltas(before, chatBuckets(chat, 'closed'));
    expect(closed.open).toBe(-1);
    expect(closed.closed).toBe(1);
    expect(Object.keys(closed)).toHaveLength(14);
    expect(bucketDeltas(before, chatBuckets({ ...chat, message_unread_count: 0 }, 'open'))).toEqual({ 'open#unread': -1 });
    expect(bucketDeltas(null, ['open'])).toEqual({ open: 1 });
  });

  it('deltas of chats in one transaction merge into one change per counter', () => {
    const d = mergeDeltas({ 'open#unread': 1, open: 1 }, { 'open#unread': 1, open: -1 });
    expect(d).toEqual({ 'open#unread': 2 });
  });

  it('counts per folder for one member; drift below zero reads 0', () => {
    const c = countsFromBuckets({ open: 5, 'open#unread': 2, 'open#assignee#ann@x.io': 3, 'open#assignee#none': 2, 'open#label#l1': 1, 'closed#phone#100': 4, 'snoozed#type#group': -1 }, 'ann@x.io');
    expect(c.open).toMatchObject({ total: 5, unread: 2, mine: 3, unassigned: 2, labels: { l1: 1 } });
    expect(c.closed.phones).toEqual({ '100': 4 });
    expect(c.snoozed.types).toEqual({ group: 0 });
    expect(countsFromBuckets({ 'open#assignee#ann@x.io': 3 }, 'bob@x.io').open.mine).toBe(0);
  });
});

describe('access and masking (spec §6)', () => {
  const member = { email: 'bob@x.io', role: 'member' as const };
  it('unset or empty chat_access: everyone; set: only listed members with true; admins always', () => {
    expect(canSeeChat({}, member)).toBe(true);
    expect(canSeeChat({ chat_access: {} }, member)).toBe(true);
    expect(canSeeChat({ chat_access: { 'ann@x.io': true } }, member)).toBe(false);
    expect(canSeeChat({ chat_access: { 'bob@x.io': false } }, member)).toBe(false);
    expect(canSeeChat({ chat_access: { 'bob@x.io': true } }, member)).toBe(true);
    expect(canSeeChat({ chat_access: { 'ann@x.io': true } }, { ...member, role: 'admin' })).toBe(true);
  });

  it('chat_assignee false blocks members only; unset allows', () => {
    expect(canChangeChatAssignee({ member_permissions: { chat_assignee: false } }, member)).toBe(false);
    expect(canChangeChatAssignee({ member_permissions: { chat_assignee: false } }, { ...member, role: 'admin' })).toBe(true);
    expect(canChangeChatAssignee({}, member)).toBe(true);
  });

  it('masks numbers for members only when the org masks', () => {
    expect(mustMask(true, member)).toBe(true);
    expect(mustMask(true, { ...member, role: 'admin' })).toBe(false);
    expect(mustMask(false, member)).toBe(false);
    expect(maskPhone('919876543210')).toBe('91********10');
    expect(maskPhone('+14155550100@c.us')).toBe('+14*******00@c.us');
    expect(maskPhone('Alan Turing')).toBe('Alan Turing');
  });
});
