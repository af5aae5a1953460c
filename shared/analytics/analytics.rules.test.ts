import { describe, expect, it } from 'vitest';
import { EMPTY_STATE, mergeIncrements, planRange, previousPeriod, reduce, rollupBucketsOf, withRollups, type ChatFacts } from './analytics.rules.ts';

const chat: ChatFacts = { chat_id: '1@c.us', chat_type: 'user', phone_id: 'p1', label_ids: ['l1'], assigned_to: 'ana@x.co' };
const T = Date.parse('2026-11-20T10:00:00Z');
const sum = (incs: ReturnType<typeof reduce>['increments'], dim: string, k: string) => incs.filter((i) => i.dim === dim).reduce((n, i) => n + (i.counters[k] ?? 0), 0);

describe('analytics rules', () => {
  it('an SLA breach counts once per org, number, assignee and label on the day it was due, and leaves the chat state alone', () => {
    const r = reduce({ opened_at: T, waiting_since: T, responded: false }, { kind: 'sla_breached', at: T, chat }, 'Etc/UTC');
    expect(r.state).toEqual({ opened_at: T, waiting_since: T, responded: false });
    for (const dim of ['org', 'phone', 'member', 'label']) expect(sum(r.increments, dim, 'sla_breaches')).toBe(1);
    expect(new Set(r.increments.map((i) => i.day))).toEqual(new Set(['2026-11-20']));
  });

  it('a customer message opens a conversation; the first answer gives first response and response time', () => {
    const a = reduce(EMPTY_STATE, { kind: 'message_in', at: T, chat, author: null });
    expect(a.state).toEqual({ opened_at: T, waiting_since: T, responded: false });
    expect(sum(a.increments, 'org', 'conv_opened')).toBe(1);
    expect(sum(a.increments, 'label', 'msg_in')).toBe(1);
    expect(sum(a.increments, 'member', 'msg_in')).toBe(1); // workload of the assignee
    expect(sum(a.increments, 'org', 'h10')).toBe(1);
    const b = reduce(a.state, { kind: 'message_in', at: T + 30_000, chat, author: null });
    expect(b.state.waiting_since).toBe(T); // still waiting since the first
    expect(sum(b.increments, 'org', 'conv_opened')).toBe(0);
    const c = reduce(b.state, { kind: 'message_out', at: T + 90_000, chat, member: 'bo@x.co' });
    expect(sum(c.increments, 'org', 'frt_sum')).toBe(90_000);
    expect(sum(c.increments, 'member', 'rt_sum')).toBe(90_000);
    expect(c.increments.find((i) => i.dim === 'member')!.dim_id).toBe('bo@x.co');
    const d = reduce(c.state, { kind: 'message_out', at: T + 95_000, chat, member: 'bo@x.co' });
    expect(sum(d.increments, 'org', 'frt_count') + sum(d.increments, 'org', 'rt_count')).toBe(0);
  });

  it('a close counts with its resolution time and ends the conversation', () => {
    const open = reduce(EMPTY_STATE, { kind: 'message_in', at: T, chat, author: null }).state;
    const closed = reduce(open, { kind: 'chat_closed', at: T + 600_000, chat, by: 'bo@x.co' });
    expect(sum(closed.increments, 'org', 'res_sum')).toBe(600_000);
    expect(closed.state).toEqual(EMPTY_STATE);
  });

  it('group messages count per group and per sender', () => {
    const g = { ...chat, chat_id: 'g@g.us', chat_type: 'group' as const };
    const r = reduce(EMPTY_STATE, { kind: 'message_in', at: T, chat: g, author: '4477' });
    expect(r.increments.find((i) => i.dim === 'gauthor')).toMatchObject({ dim_id: 'g@g.us|4477', counters: { msg_in: 1 } });
    expect(sum(r.increments, 'group', 'msg_in')).toBe(1);
  });

  it('merges increments of one row, and finds the previous period', () => {
    const m = mergeIncrements([
      { dim: 'org', dim_id: '_', day: '2026-11-20', counters: { msg_in: 1 } },
      { dim: 'org', dim_id: '_', day: '2026-11-20', counters: { msg_in: 2, msg_out: 1 } },
    ]);
    expect(m).toEqual([{ dim: 'org', dim_id: '_', day: '2026-11-20', counters: { msg_in: 3, msg_out: 1 } }]);
    expect(previousPeriod('2026-11-01', '2026-11-30')).toEqual({ from: '2026-10-02', to: '2026-10-31' });
  });
});

describe('org time zone and roll-ups', () => {
  it('counts days and hours in the org zone (a late UTC evening is the next morning in Tokyo)', () => {
    const at = Date.parse('2026-11-20T23:30:00Z');
    const utc = reduce(EMPTY_STATE, { kind: 'message_in', at, chat, author: null });
    expect(utc.increments[0]).toMatchObject({ day: '2026-11-20', counters: { h23: 1 } });
    const tokyo = reduce(EMPTY_STATE, { kind: 'message_in', at, chat, author: null }, 'Asia/Tokyo');
    expect(tokyo.increments[0]).toMatchObject({ day: '2026-11-21', counters: { h08: 1 } });
  });

  it('adds each day increment to its week (from Monday) and month rows', () => {
    const rows = withRollups([{ dim: 'org', dim_id: '_', day: '2026-11-26', counters: { msg_in: 2 } }]);
    expect(rows.map((r) => r.day)).toEqual(['2026-11-26', 'W2026-11-23', 'M2026-11']);
    expect(rows.every((r) => r.counters.msg_in === 2)).toBe(true);
  });

  it('plans a range as whole months, whole weeks and the odd days, in runs', () => {
    expect(planRange('2026-11-01', '2026-11-30')).toEqual([{ kind: 'month', from: 'M2026-11', to: 'M2026-11', count: 1 }]);
    const p = planRange('2026-10-28', '2026-11-26');
    // Wed 28 Oct .. Sun 1 Nov as days, three whole weeks from Mon 2 Nov, then Mon 23 .. Thu 26 Nov as days
    expect(p.map((r) => [r.kind, r.count])).toEqual([
      ['day', 5],
      ['week', 3],
      ['day', 4],
    ]);
    const rows = p.reduce((n, r) => n + r.count, 0);
    expect(rows).toBeLessThan(30);
    const year = planRange('2026-01-01', '2026-12-31');
    expect(year).toEqual([{ kind: 'month', from: 'M2026-01', to: 'M2026-12', count: 12 }]);
    // the days covered add up exactly
    const covered = (k: { kind: string; from: string; count: number }) => (k.kind === 'day' ? k.count : k.kind === 'week' ? 7 * k.count : 0);
    expect(p.reduce((n, r) => n + covered(r), 0)).toBe(30);
  });

  it('names the roll-ups a rebuilt range touches, with the span of days that sums them', () => {
    const b = rollupBucketsOf('2026-11-26', '2026-12-02');
    expect([...b.keys].sort()).toEqual(['M2026-11', 'M2026-12', 'W2026-11-23', 'W2026-11-30']);
    expect(b.span).toEqual({ from: '2026-11-01', to: '2026-12-31' });
  });
});
