import { describe, expect, it } from 'vitest';
import type { Message } from '#shared/message/message.schemas.ts';
import { LOCAL_PREFIX, settleOptimistic, upsertMessages } from './messages.ts';

const msg = (over: Partial<Message>): Message => ({
  org_id: 'o',
  chat_id: 'c',
  unique_id: 'u',
  org_phone: '1',
  phone_id: 'p',
  timestamp: 1,
  from_me: true,
  ack: 0,
  message_type: 'text',
  ...over,
});

describe('a sent message is shown once', () => {
  const local = msg({ unique_id: `${LOCAL_PREFIX}cid-1`, body: 'hi', timestamp: 100 });
  const stored = msg({ unique_id: '01J0000000000000000000000A', body: 'hi', timestamp: 101, client_id: 'cid-1' });

  it('the socket copy, arriving before the POST answer, replaces the optimistic bubble', () => {
    const list = upsertMessages(upsertMessages([], [local]), [stored]);
    expect(list.map((m) => m.unique_id)).toEqual([stored.unique_id]);
    // then the POST answers: still one bubble, the fresher socket state kept
    const settled = settleOptimistic(upsertMessages(list, [{ ...stored, ack: 1 }]), local.unique_id, stored);
    expect(settled).toHaveLength(1);
    expect(settled[0].ack).toBe(1);
  });

  it('another browser’s message with a client_id leaves this browser’s bubbles alone', () => {
    const mine = msg({ unique_id: `${LOCAL_PREFIX}cid-2`, body: 'mine', timestamp: 100 });
    const list = upsertMessages([mine], [stored]);
    expect(list.map((m) => m.unique_id)).toEqual([mine.unique_id, stored.unique_id]);
  });
});
