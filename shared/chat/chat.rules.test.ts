import { describe, expect, it } from 'vitest';
import { applyMessageToChat, isServiceWindowOpen, markRead, SERVICE_WINDOW_MS, serviceWindowEnd } from './chat.rules.ts';

const latest = (ts: number, id = `u${ts}`) => ({ unique_id: id, body: 'x', message_type: 'text', from_me: false, ack: 0, timestamp: ts });
const empty: Parameters<typeof applyMessageToChat>[0] = { latest_message_timestamp: 0 };

describe('applyMessageToChat', () => {
  it('counts unread per phone and keeps the newest message on top', () => {
    let chat = applyMessageToChat(empty, { latest: latest(100), org_phone: 'A', phone_id: 'a', countsAsUnread: true, fromCustomer: true });
    chat = applyMessageToChat(chat, { latest: latest(200), org_phone: 'B', phone_id: 'b', countsAsUnread: true, fromCustomer: true });
    chat = applyMessageToChat(chat, { latest: latest(150), org_phone: 'A', phone_id: 'a', countsAsUnread: true, fromCustomer: true });
    expect(chat.unread_count).toEqual({ A: 2, B: 1 });
    expect(chat.message_unread_count).toBe(3);
    expect(chat.latest_message_timestamp).toBe(200);
    expect(chat.latest_message?.unique_id).toBe('u200');
    expect(chat.chat_org_phones).toEqual(['A', 'B']);
    expect(chat.latest_message_timestamp_map).toEqual({ A: 150, B: 200 });
  });

  it('our own messages move the chat up without unread or window changes', () => {
    const chat = applyMessageToChat(empty, { latest: { ...latest(300), from_me: true }, org_phone: 'A', phone_id: 'a', countsAsUnread: false, fromCustomer: false });
    expect(chat.unread_count).toEqual({});
    expect(chat.last_customer_message_at).toEqual({});
    expect(chat.latest_message_timestamp).toBe(300);
  });

  it('markRead zeroes every phone', () => {
    expect(markRead({ unread_count: { A: 2, B: 1 }, message_unread_count: 3 })).toEqual({ unread_count: { A: 0, B: 0 }, message_unread_count: 0 });
  });

  it('the 24-hour service window is per phone and closes at exactly 24 h', () => {
    const chat = { last_customer_message_at: { A: 1_000 } };
    expect(isServiceWindowOpen(chat, 'A', 1_000 + SERVICE_WINDOW_MS - 60_000)).toBe(true);
    expect(isServiceWindowOpen(chat, 'A', 1_000 + SERVICE_WINDOW_MS)).toBe(false);
    expect(isServiceWindowOpen(chat, 'B', 1_000)).toBe(false);
    // the end the outbound consumer is told: open strictly before it
    expect(serviceWindowEnd(chat, 'A')).toBe(1_000 + SERVICE_WINDOW_MS);
    expect(isServiceWindowOpen(chat, 'A', serviceWindowEnd(chat, 'A')! - 1)).toBe(true);
    expect(serviceWindowEnd(chat, 'B')).toBeNull();
  });
});
