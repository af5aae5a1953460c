import { describe, expect, it } from 'vitest';
import { compareTickets, matchesTicketFilter } from './ticket-list.rules.ts';

const t = (id: string, over: Partial<{ priority: number; last_updated_at: number; due_date: number | null; status: 'open' | 'inprogress' | 'closed'; assignee: string | null; labels: string[]; phone_id: string }> = {}) => ({
  ticket_id: id,
  priority: 2,
  last_updated_at: 1_000,
  due_date: null,
  status: 'open' as const,
  assignee: null,
  labels: [],
  phone_id: 'p1',
  ...over,
});

const order = (sort: Parameters<typeof compareTickets>[0], list: ReturnType<typeof t>[]) => [...list].sort(compareTickets(sort)).map((x) => x.ticket_id);

describe('compareTickets', () => {
  it('breaks every tie newest first (ticket ids are ULIDs)', () => {
    const list = [t('01A'), t('01C'), t('01B')];
    expect(order('created_desc', list)).toEqual(['01C', '01B', '01A']);
    expect(order('created_asc', list)).toEqual(['01A', '01B', '01C']);
    expect(order('updated_desc', list)).toEqual(['01C', '01B', '01A']);
    expect(order('priority_desc', list)).toEqual(['01C', '01B', '01A']);
  });

  it('due_asc: earliest due first, tickets without a due date last', () => {
    const list = [t('01A', { due_date: null }), t('01B', { due_date: 500 }), t('01C', { due_date: 100 }), t('01D', { due_date: null })];
    expect(order('due_asc', list)).toEqual(['01C', '01B', '01D', '01A']);
  });

  it('priority_desc and updated_desc sort by their field first', () => {
    expect(order('priority_desc', [t('01A', { priority: 3 }), t('01B', { priority: 1 })])).toEqual(['01A', '01B']);
    expect(order('updated_desc', [t('01A', { last_updated_at: 9 }), t('01B', { last_updated_at: 1 })])).toEqual(['01A', '01B']);
  });
});

describe('matchesTicketFilter', () => {
  it('combines filters with AND; unassigned is "none"; due bounds are inclusive and exclude no due date', () => {
    const x = t('01A', { assignee: 'Ana@X.com', labels: ['l1'], due_date: 100, priority: 3 });
    expect(matchesTicketFilter(x, {})).toBe(true);
    expect(matchesTicketFilter(x, { assignee: 'ana@x.com', label: 'l1', priority: 3, status: 'open', phone_id: 'p1' })).toBe(true);
    expect(matchesTicketFilter(x, { assignee: 'none' })).toBe(false);
    expect(matchesTicketFilter(t('01B'), { assignee: 'none' })).toBe(true);
    expect(matchesTicketFilter(x, { due_from: 100, due_to: 100 })).toBe(true);
    expect(matchesTicketFilter(x, { due_from: 101 })).toBe(false);
    expect(matchesTicketFilter(t('01B'), { due_to: 100 })).toBe(false);
    expect(matchesTicketFilter(x, { label: 'l2' })).toBe(false);
  });
});
