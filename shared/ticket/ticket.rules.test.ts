import { describe, expect, it } from 'vitest';
import { badgeDeltas, canAttachToTicket, canDetachFromTicket, canCreateTicket, countsForBadge, sortChatTickets, subjectFromMessage } from './ticket.rules.ts';
import { badgeText, ListTicketsQuery, UpdateTicketInput } from './ticket.schemas.ts';

describe('create / attach eligibility (spec §5)', () => {
  it('creates only when the message has no ticket', () => {
    expect(canCreateTicket({})).toEqual({ allowed: true });
    expect(canCreateTicket({ message_ticket_id: 'tkt_1' })).toMatchObject({ allowed: false, reason: 'This message already belongs to a ticket.' });
    expect(canCreateTicket({ is_deleted: true }).allowed).toBe(false);
  });
  it('attaches only when the chat has an open or in-progress ticket and the message none', () => {
    expect(canAttachToTicket({}, [{ status: 'closed' }])).toMatchObject({ allowed: false, reason: 'This chat has no open tickets.' });
    expect(canAttachToTicket({}, [])).toMatchObject({ allowed: false });
    expect(canAttachToTicket({}, [{ status: 'closed' }, { status: 'inprogress' }])).toEqual({ allowed: true });
    expect(canAttachToTicket({ message_ticket_id: 'tkt_1' }, [{ status: 'open' }]).allowed).toBe(false);
  });
});

describe('detach', () => {
  it('keeps the message a ticket was created from', () => {
    const ticket = { ticket_id: 'tkt_1', quoted_message_id: 'M1' };
    expect(canDetachFromTicket({ unique_id: 'M1', message_ticket_id: 'tkt_1' }, ticket).allowed).toBe(false);
    expect(canDetachFromTicket({ unique_id: 'M2', message_ticket_id: 'tkt_1' }, ticket)).toEqual({ allowed: true });
    expect(canDetachFromTicket({ unique_id: 'M2', message_ticket_id: 'tkt_9' }, ticket).allowed).toBe(false);
  });
});

describe('badge (spec §2, §9)', () => {
  it('counts tickets assigned to me that are open or in progress', () => {
    expect(countsForBadge({ status: 'open', assignee: 'a@x' }, 'a@x')).toBe(true);
    expect(countsForBadge({ status: 'inprogress', assignee: 'a@x' }, 'a@x')).toBe(true);
    expect(countsForBadge({ status: 'closed', assignee: 'a@x' }, 'a@x')).toBe(false);
    expect(countsForBadge({ status: 'open', assignee: null }, 'a@x')).toBe(false);
    expect(countsForBadge({ status: 'open', assignee: 'b@x' }, 'a@x')).toBe(false);
  });
  it('moves counters on write: create, close, reopen, reassign, no-op', () => {
    expect(badgeDeltas(null, { status: 'open', assignee: 'a' })).toEqual({ a: 1 });
    expect(badgeDeltas({ status: 'open', assignee: 'a' }, { status: 'closed', assignee: 'a' })).toEqual({ a: -1 });
    expect(badgeDeltas({ status: 'closed', assignee: 'a' }, { status: 'inprogress', assignee: 'a' })).toEqual({ a: 1 });
    expect(badgeDeltas({ status: 'open', assignee: 'a' }, { status: 'open', assignee: 'b' })).toEqual({ a: -1, b: 1 });
    expect(badgeDeltas({ status: 'open', assignee: 'a' }, { status: 'inprogress', assignee: 'a' })).toEqual({});
    expect(badgeDeltas({ status: 'open', assignee: null }, { status: 'closed', assignee: null })).toEqual({});
  });
  it('shows 99+ above 99 and nothing at 0', () => {
    expect([0, 1, 99, 100, 5000].map(badgeText)).toEqual(['', '1', '99', '99+', '99+']);
  });
});

describe('helpers', () => {
  it('orders a chat’s tickets open first, newest first within each group', () => {
    const t = (id: string, status: 'open' | 'inprogress' | 'closed', created_at: number) => ({ id, status, created_at });
    expect(sortChatTickets([t('a', 'closed', 3), t('b', 'open', 1), t('c', 'inprogress', 2), t('d', 'closed', 4)]).map((x) => x.id)).toEqual(['c', 'b', 'd', 'a']);
  });
  it('prefills the subject from the first non-empty line, at most 80 characters', () => {
    expect(subjectFromMessage({ body: '\n  Refund please \nthanks', message_type: 'text' })).toBe('Refund please');
    expect(subjectFromMessage({ body: 'x'.repeat(100), message_type: 'text' })).toHaveLength(80);
    expect(subjectFromMessage({ body: null, message_type: 'image' })).toBe('Image message');
  });
  it('validates list queries and updates with field reasons', () => {
    expect(ListTicketsQuery.safeParse({ due_from: '10', due_to: '5' }).success).toBe(false);
    expect(ListTicketsQuery.parse({ priority: '3' })).toMatchObject({ priority: 3, sort: 'created_desc', limit: 50 });
    expect(UpdateTicketInput.safeParse({}).success).toBe(false);
    expect(UpdateTicketInput.parse({ assignee: ' A@X.com ' })).toEqual({ assignee: 'a@x.com' });
  });
});
