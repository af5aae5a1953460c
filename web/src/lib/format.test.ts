import { describe, expect, it } from 'vitest';
import { chatDisplayName, chatIdLabel, chatNumber, chatUsername, customerNumber, formatPhone } from './format.ts';

/** issue 41: a chat's name and number never show an opaque `cht_…` id. */
describe('chat names and numbers', () => {
  const opaque = 'cht_htk46wtcxtcr6y4py66zmnr1g5';

  it('falls back from the saved name to the number, the username, then "Unknown customer"', () => {
    expect(chatDisplayName({ chat_id: '5511987650123@c.us', chat_name: 'Bruna' })).toBe('Bruna');
    expect(chatDisplayName({ chat_id: '5511987650123@c.us' })).toBe('+5511987650123');
    expect(chatDisplayName({ chat_id: opaque, identity: { user_id: 'BR.1', username: '@ana' } })).toBe('@ana');
    expect(chatDisplayName({ chat_id: opaque, identity: { user_id: 'BR.1' } })).toBe('Unknown customer');
    expect(chatDisplayName({ chat_id: opaque, identity: { wa_id: '5511912340987', user_id: 'BR.1' } })).toBe('+5511912340987');
    expect(chatDisplayName({ chat_id: '120363@g.us', chat_type: 'group' })).toBe('Group chat');
  });

  it('masks the number for masked viewers', () => {
    expect(chatDisplayName({ chat_id: '5511987650123@c.us' }, true)).toBe('55*********23');
    expect(customerNumber({ chat_id: '5511987650123@c.us' }, true)).toBe('55*********23');
    // already masked by the API: unchanged
    expect(customerNumber({ chat_id: opaque, identity: { wa_id: '55*********87' } }, true)).toBe('55*********87');
  });

  it('says there is no number for an opaque chat and for groups', () => {
    expect(customerNumber({ chat_id: opaque, identity: { user_id: 'BR.1', username: '@ana' } })).toBeNull();
    expect(customerNumber({ chat_id: '120363@g.us' })).toBeNull();
    expect(chatUsername({ chat_id: opaque, identity: { username: '@ana' } })).toBe('@ana');
  });

  it('labels a bare chat id without showing an opaque id', () => {
    expect(chatNumber(opaque)).toBe('Unknown customer');
    expect(chatIdLabel(opaque)).toBe('Unknown customer');
    expect(formatPhone(opaque)).toBe('Unknown customer');
    expect(chatIdLabel('16505551234@c.us')).toBe('+16505551234');
    expect(chatNumber('16505551234@c.us')).toBe('16505551234');
  });
});
