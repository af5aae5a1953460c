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

describe('edits and deletes settled by WhatsApp stay settled (events out of order)', () => {
  const base = msg({ unique_id: '01J0000000000000000000000B', body: 'old', ack: 1 });
  const pendingEdit = { ...base, body: 'new', edited_at: 500, edit_status: 'pending' as const, edit_history: [{ body: 'old', edited_at: 500, edited_by: 'a@x' }] };

  it('a late pending snapshot does not undo a confirmed edit', () => {
    const list = upsertMessages([{ ...pendingEdit, edit_status: 'sent' }], [pendingEdit]);
    expect(list[0]).toMatchObject({ body: 'new', edit_status: 'sent' });
  });

  it('a late pending snapshot does not bring back a refused (reverted) edit', () => {
    const reverted = { ...base, edit_status: 'failed' as const, edited_at: null, edit_history: [], edit_error: { body: 'new', reason: 'refused', at: 600 } };
    const list = upsertMessages([reverted], [pendingEdit]);
    expect(list[0]).toMatchObject({ body: 'old', edit_status: 'failed', edited_at: null });
  });

  it('a newer edit after a refused one is shown', () => {
    const reverted = { ...base, edit_status: 'failed' as const, edited_at: null, edit_error: { body: 'new', reason: 'refused', at: 600 } };
    const list = upsertMessages([reverted], [{ ...pendingEdit, body: 'newer', edited_at: 700 }]);
    expect(list[0]).toMatchObject({ body: 'newer', edit_status: 'pending' });
  });

  it('a late pending snapshot does not undo a confirmed or a refused delete', () => {
    const pendingDelete = { ...base, is_deleted: true, deleted_at: 800, deleted_by: 'a@x', delete_status: 'pending' as const };
    expect(upsertMessages([{ ...pendingDelete, delete_status: 'sent' }], [pendingDelete])[0].delete_status).toBe('sent');
    const undone = { ...base, is_deleted: false, deleted_at: null, deleted_by: null, delete_status: 'failed' as const, delete_error: { reason: 'refused', at: 900 } };
    expect(upsertMessages([undone], [pendingDelete])[0]).toMatchObject({ is_deleted: false, delete_status: 'failed' });
  });
});
