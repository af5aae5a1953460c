import { describe, expect, it } from 'vitest';
import { EMPTY_STATE, mergeIncrements, previousPeriod, reduce, type ChatFacts } from './analytics.rules.ts';

const chat: ChatFacts = { chat_id: '1@c.us', chat_type: 'user', phone_id: 'p1', label_ids: ['l1'], assigned_to: 'ana@x.co' };
const T = Date.parse('2026-11-20T10:00:00Z');
const sum = (incs: ReturnType<typeof reduce>['increments'], dim: string, k: string) => incs.filter((i) => i.dim === dim).reduce((n, i) => n + (i.counters[k] ?? 0), 0);

describe('analytics rules', () => {
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
