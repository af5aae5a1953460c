import { describe, expect, it } from 'vitest';
import { chatIdOfContactId, chatNumberOf, contactIdOfOpaqueChat, isOpaqueChatId, mergeIdentity, resolveCustomer } from './identity.rules.ts';
import { opaqueChatIdFor, opaqueContactIdFor, opaqueIdsFor } from './opaque-id.ts';

const U = 'BR.17730000000000000001';

describe('opaque ids (issue 41 §3)', () => {
  it('are stable per BSUID, tell nothing of it, and pair a contact with its chat', () => {
    const chat = opaqueChatIdFor(U);
    expect(chat).toMatch(/^cht_[0-9a-z]{26}$/);
    expect(opaqueChatIdFor(U)).toBe(chat);
    expect(opaqueChatIdFor('BR.17730000000000000002')).not.toBe(chat);
    expect(chat).not.toContain('1773');
    expect(isOpaqueChatId(chat)).toBe(true);
    expect(chatIdOfContactId(opaqueContactIdFor(U))).toBe(chat);
    expect(chatIdOfContactId('447700900123')).toBe('447700900123@c.us');
    expect(contactIdOfOpaqueChat(chat)).toBe(opaqueContactIdFor(U));
    expect(contactIdOfOpaqueChat('447700900123@c.us')).toBeNull();
    expect(contactIdOfOpaqueChat('cht__sealed')).toBeNull();
  });

  it('a chat number comes from the identity, else from a @c.us id, else is unknown', () => {
    expect(chatNumberOf('447700900123@c.us')).toBe('447700900123');
    expect(chatNumberOf(opaqueChatIdFor(U), { user_id: U })).toBeNull();
    expect(chatNumberOf(opaqueChatIdFor(U), { user_id: U, wa_id: '5511999990000' })).toBe('5511999990000');
  });
});

describe('resolveCustomer (issue 41 §2)', () => {
  it('a number alone keeps the number chat; a BSUID alone gets the opaque chat', () => {
    expect(resolveCustomer({ wa_id: '447700900123' }, {}, opaqueIdsFor)).toEqual({ chat_id: '447700900123@c.us', contact_id: '447700900123' });
    expect(resolveCustomer({ user_id: U }, {}, opaqueIdsFor)).toEqual({ chat_id: opaqueChatIdFor(U), contact_id: opaqueContactIdFor(U) });
    expect(resolveCustomer({}, {}, opaqueIdsFor)).toBeNull();
  });

  it('the BSUID row wins over the number, and two contacts for one person are a conflict to merge', () => {
    const byUser = { chat_id: 'cht_x', contact_id: 'ctc_x' };
    const byPhone = { chat_id: '447700900123@c.us', contact_id: '447700900123' };
    expect(resolveCustomer({ wa_id: '447700900123', user_id: U }, { bsuid: byUser, phone: byPhone }, opaqueIdsFor)).toEqual({ ...byUser, conflict: { keep: 'ctc_x', merge: '447700900123' } });
    expect(resolveCustomer({ wa_id: '447700900123', user_id: U }, { phone: byPhone }, opaqueIdsFor)).toEqual(byPhone);
    expect(resolveCustomer({ user_id: U }, { bsuid: byPhone }, opaqueIdsFor)).toEqual(byPhone);
  });
});

describe('mergeIdentity', () => {
  it('keeps what the message does not carry and reports a change only when something moved', () => {
    expect(mergeIdentity({ wa_id: '1', user_id: U }, { user_id: U })).toEqual({ identity: { wa_id: '1', user_id: U }, changed: false });
    expect(mergeIdentity({ user_id: U }, { user_id: U, username: '@ana' })).toEqual({ identity: { user_id: U, username: '@ana' }, changed: true });
    expect(mergeIdentity(undefined, { wa_id: '1' })).toEqual({ identity: { wa_id: '1' }, changed: true });
  });
});
