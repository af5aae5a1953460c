import { describe, expect, it } from 'vitest';
import { canSeeChat, maskIdentity, maskNumbersInText, maskPhone, mustMask } from './chat-access.rules.ts';
import { viewMessage } from './chat-view.ts';
import type { Message } from '../message/message.schemas.ts';

const member = { email: 'amy@x.test', role: 'member' as const };
const admin = { email: 'boss@x.test', role: 'admin' as const };

describe('canSeeChat / mustMask (spec §6)', () => {
  it('an unset or empty chat_access lets every member see the chat; a set one only those marked true; admins always', () => {
    expect(canSeeChat({}, member)).toBe(true);
    expect(canSeeChat({ chat_access: {} }, member)).toBe(true);
    expect(canSeeChat({ chat_access: { 'boss@x.test': true } }, member)).toBe(false);
    expect(canSeeChat({ chat_access: { 'amy@x.test': false } }, member)).toBe(false);
    expect(canSeeChat({ chat_access: { 'amy@x.test': true } }, member)).toBe(true);
    expect(canSeeChat({ chat_access: { 'amy@x.test': false } }, admin)).toBe(true);
    expect([mustMask(true, member), mustMask(true, admin), mustMask(false, member)]).toEqual([true, false, false]);
  });
});

describe('masking', () => {
  it('maskIdentity masks numbers and whatsapp:<number>, never emails or system', () => {
    expect(maskIdentity('919876543210')).toBe('91********10');
    expect(maskIdentity('whatsapp:15557770009')).toBe('whatsapp:15*******09');
    expect(maskIdentity('amy@x.test')).toBe('amy@x.test');
    expect(maskIdentity('system')).toBe('system');
    expect(maskPhone('Grace')).toBe('Grace');
  });

  it('maskNumbersInText masks every number of 7+ digits in a text and leaves short ones', () => {
    expect(maskNumbersInText('boss assigned 15557770011 to you')).toBe('boss assigned 15*******11 to you');
    expect(maskNumbersInText('+91 98765 43210: the snooze ended')).toBe('+91********10: the snooze ended');
    expect(maskNumbersInText('order #123 of 2 items')).toBe('order #123 of 2 items');
  });

  it('viewMessage masks deleted_by, edit_history[].edited_by and reactions for a masked viewer only', () => {
    const m = {
      unique_id: 'u',
      chat_id: '15557770009@c.us',
      sender_phone: '15557770009',
      author: 'Wendy',
      deleted_by: 'whatsapp:15557770009',
      edit_history: [{ body: 'a', edited_at: 1, edited_by: 'whatsapp:15557770009' }, { body: 'b', edited_at: 2, edited_by: 'amy@x.test' }],
      reactions: { '15557770009': { reaction: '👍', timestamp: 1 } },
    } as unknown as Message;
    const v = viewMessage(m, { viewer: member, maskPhoneNumbers: true });
    expect(v.sender_phone).toBe('15*******09');
    expect(v.deleted_by).toBe('whatsapp:15*******09');
    expect(v.edit_history?.map((e) => e.edited_by)).toEqual(['whatsapp:15*******09', 'amy@x.test']);
    expect(Object.keys(v.reactions ?? {})).toEqual(['15*******09']);
    expect(viewMessage(m, { viewer: admin, maskPhoneNumbers: true })).toBe(m);
  });
});
