import { describe, expect, it } from 'vitest';
import { closeDelay, countText, hitPath, searchParams } from './search.ts';

describe('search dialog rules', () => {
  it('builds the API params: trimmed text, empty filters left out, dates as whole local days', () => {
    const p = searchParams('  refund ', { phone_id: '', sender: ' 5511 ', from: '2026-03-01', to: '2026-03-01' });
    expect(p.q).toBe('refund');
    expect(p.phone_id).toBeUndefined();
    expect(p.sender).toBe('5511');
    expect(p.to! - p.from!).toBe(86_400_000 - 1);
    expect(p.limit).toBe(500);
  });
  it('opens messages in their thread, tickets in the ticket list, chats and contacts as chats', () => {
    expect(hitPath('messages', { chat_id: '1@c.us', unique_id: 'u1', snippet: '' })).toBe('/chats/1%40c.us?message=u1');
    expect(hitPath('notes', { chat_id: '1@c.us', unique_id: 'u2', snippet: '' })).toBe('/chats/1%40c.us?message=u2');
    expect(hitPath('tickets', { chat_id: '1@c.us', ticket_id: 'tkt_1', snippet: '' })).toBe('/tickets?ticket=tkt_1');
    expect(hitPath('contacts', { chat_id: '1@c.us', snippet: '' })).toBe('/chats/1%40c.us');
  });
  it('closes 500 ms after a choice, 1 s for tickets (spec §9); counts say when there are more', () => {
    expect(closeDelay('messages')).toBe(500);
    expect(closeDelay('tickets')).toBe(1000);
    expect(countText(500, true)).toBe('500+');
    expect(countText(3, false)).toBe('3');
  });
});
