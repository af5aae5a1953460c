import { describe, expect, it } from 'vitest';
import { callbackDataFor, canRetrySend, parseCallbackData } from './send-reconcile.rules.ts';

describe('send callback data (issue 23 item 4)', () => {
  const key = { chat_id: '447700900123@c.us', timestamp: 1764000000123, unique_id: '01KAXYZ0000000000000000000' };
  it('round-trips a message key', () => {
    expect(parseCallbackData(callbackDataFor(key))).toEqual(key);
  });
  it('a group chat id round-trips too', () => {
    const g = { ...key, chat_id: '120363041234567890@g.us' };
    expect(parseCallbackData(callbackDataFor(g))).toEqual(g);
  });
  it('ignores data that is not ours or malformed', () => {
    for (const d of [undefined, '', 'campaign-42', 'chorus1|a|b|c', 'chorus1|a|12', 'chorus2|a|1|u', 'chorus1||1|u', 'chorus1|a|1|']) expect(parseCallbackData(d)).toBeNull();
  });
  it('stays within Meta\'s 512 characters', () => {
    expect(() => callbackDataFor({ ...key, chat_id: 'x'.repeat(600) })).toThrow(/512/);
  });
});

describe('canRetrySend', () => {
  const base = { from_me: true, ack: 0, message_id: null, send_uncertain_at: null };
  it('offers Retry for a failed or uncertain message of ours', () => {
    expect(canRetrySend({ ...base, ack: -1 })).toBe(true);
    expect(canRetrySend({ ...base, send_uncertain_at: 1 })).toBe(true);
  });
  it('not for a pending, accepted, inbound, deleted or note message', () => {
    expect(canRetrySend(base)).toBe(false);
    expect(canRetrySend({ ...base, ack: -1, message_id: 'wamid.X' })).toBe(false);
    expect(canRetrySend({ ...base, ack: -1, from_me: false })).toBe(false);
    expect(canRetrySend({ ...base, ack: -1, is_deleted: true })).toBe(false);
    expect(canRetrySend({ ...base, ack: -1, is_private_note: true })).toBe(false);
  });
});
