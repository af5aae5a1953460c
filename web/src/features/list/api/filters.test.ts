import { describe, expect, it } from 'vitest';
import { matchingCount, NO_FILTER, toQuery } from './filters.ts';
import type { FolderCounts, InboxState } from '#shared/chat/chat-state.rules.ts';

const folder = (total: number): FolderCounts => ({ total, unread: 3, mine: 2, unassigned: 5, labels: { lbl_a: 7 }, phones: { '15550001': 9 }, types: { group: 1 } });
const counts = { open: folder(20), closed: folder(4), snoozed: folder(0), archived: folder(1) } as Record<InboxState, FolderCounts>;

describe('list filters', () => {
  it('leaves unset filters out of the query', () => {
    expect(toQuery(NO_FILTER)).toEqual({ state: 'open' });
    expect(toQuery({ ...NO_FILTER, state: 'closed', unread: true, assignee: 'me', label_id: 'lbl_a', phone: '15550001', type: 'group' })).toEqual({ state: 'closed', unread: 'true', assignee: 'me', label_id: 'lbl_a', phone: '15550001', type: 'group' });
    expect(toQuery({ ...NO_FILTER, property_id: 'prp_1', property_value: 'opt_a' })).toEqual({ state: 'open', property_id: 'prp_1', property_value: 'opt_a' });
    expect(toQuery({ ...NO_FILTER, property_id: 'prp_1' })).toEqual({ state: 'open' });
    expect(matchingCount({ ...NO_FILTER, property_id: 'prp_1', property_value: 'opt_a' }, counts)).toBeNull();
  });

  it('counts the folder or one filter, and not combinations', () => {
    expect(matchingCount(NO_FILTER, counts)).toBe(20);
    expect(matchingCount({ ...NO_FILTER, state: 'closed' }, counts)).toBe(4);
    expect(matchingCount({ ...NO_FILTER, unread: true }, counts)).toBe(3);
    expect(matchingCount({ ...NO_FILTER, assignee: 'me' }, counts)).toBe(2);
    expect(matchingCount({ ...NO_FILTER, assignee: 'none' }, counts)).toBe(5);
    expect(matchingCount({ ...NO_FILTER, label_id: 'lbl_a' }, counts)).toBe(7);
    expect(matchingCount({ ...NO_FILTER, label_id: 'lbl_b' }, counts)).toBe(0);
    expect(matchingCount({ ...NO_FILTER, type: 'group' }, counts)).toBe(1);
    expect(matchingCount({ ...NO_FILTER, unread: true, label_id: 'lbl_a' }, counts)).toBeNull();
    expect(matchingCount(NO_FILTER, null)).toBeNull();
  });
});
