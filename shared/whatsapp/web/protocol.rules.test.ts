import { describe, expect, it } from 'vitest';
import { editRefusal, isAuthor, reactionRefusal, revokeRefusal } from './protocol.rules.ts';

const OURS = '15550008888';
const CUSTOMER = '919800011122';
const OTHER = '919800033344';
const DM = `${CUSTOMER}@c.us`;
const GROUP = '120363000000000001@g.us';

const customerMsg = { chat_id: DM, from_me: false, sender_phone: CUSTOMER, org_phone: OURS };
const ourMsg = { chat_id: DM, from_me: true, sender_phone: OURS, org_phone: OURS };
const groupMsg = { chat_id: GROUP, from_me: false, sender_phone: CUSTOMER, org_phone: OURS };
const group = (admins: string[]) => ({ chat_type: 'group', group_metadata: { admins, fetched_at: 1 } });

describe('edits (whatsapp-protocols.md §B.4: only the author edits)', () => {
  it('apply from the author in the message’s chat', () => {
    expect(editRefusal(customerMsg, { chat_id: DM, sender: CUSTOMER, from_me: false })).toBeNull();
    expect(editRefusal(ourMsg, { chat_id: DM, sender: OURS, from_me: true })).toBeNull();
  });
  it('are refused from anyone else, even naming the right id', () => {
    expect(editRefusal(customerMsg, { chat_id: DM, sender: OTHER, from_me: false })).toBe('not_author');
    // our phone cannot rewrite the customer's words, nor the customer ours
    expect(editRefusal(customerMsg, { chat_id: DM, sender: OURS, from_me: true })).toBe('not_author');
    expect(editRefusal(ourMsg, { chat_id: DM, sender: CUSTOMER, from_me: false })).toBe('not_author');
    // a customer whose number equals ours as digits is still not 'from me'
    expect(editRefusal(ourMsg, { chat_id: DM, sender: OURS, from_me: false })).toBe('not_author');
  });
  it('are refused when they arrive in another chat than the message’s', () => {
    expect(editRefusal(groupMsg, { chat_id: DM, sender: CUSTOMER, from_me: false })).toBe('other_chat');
  });
  it('compare numbers as digits (jid forms and a leading +)', () => {
    expect(isAuthor({ ...customerMsg, sender_phone: `+${CUSTOMER}` }, { sender: `${CUSTOMER}:3@s.whatsapp.net`, from_me: false })).toBe(true);
    expect(isAuthor({ ...customerMsg, sender_phone: null }, { sender: '', from_me: false })).toBe(false);
  });
});

describe('revokes (spec §5: the author, or a group admin in a group)', () => {
  it('apply from the author', () => {
    expect(revokeRefusal(customerMsg, { chat_id: DM, sender: CUSTOMER, from_me: false }, undefined)).toBeNull();
    expect(revokeRefusal(groupMsg, { chat_id: GROUP, sender: CUSTOMER, from_me: false }, group([]))).toBeNull();
  });
  it('apply from a group admin kept on the group chat, ours included', () => {
    expect(revokeRefusal(groupMsg, { chat_id: GROUP, sender: OTHER, from_me: false }, group([OTHER]))).toBeNull();
    expect(revokeRefusal(groupMsg, { chat_id: GROUP, sender: OURS, from_me: true }, group([OURS]))).toBeNull();
  });
  it('are refused from a participant who is not an admin, or when the admins are unknown', () => {
    expect(revokeRefusal(groupMsg, { chat_id: GROUP, sender: OTHER, from_me: false }, group([OURS]))).toBe('not_author_or_group_admin');
    expect(revokeRefusal(groupMsg, { chat_id: GROUP, sender: OTHER, from_me: false }, { chat_type: 'group', group_metadata: null })).toBe('not_author_or_group_admin');
    expect(revokeRefusal(groupMsg, { chat_id: GROUP, sender: OTHER, from_me: false }, null)).toBe('not_author_or_group_admin');
  });
  it('a 1:1 chat has no admins: only the author revokes', () => {
    expect(revokeRefusal(ourMsg, { chat_id: DM, sender: CUSTOMER, from_me: false }, { chat_type: 'user', group_metadata: { admins: [CUSTOMER] } })).toBe('not_author_or_group_admin');
  });
  it('are refused when they arrive in another chat, whoever sends them', () => {
    expect(revokeRefusal(groupMsg, { chat_id: DM, sender: CUSTOMER, from_me: false }, group([CUSTOMER]))).toBe('other_chat');
  });
});

describe('reactions', () => {
  it('land only on a message of the chat they were sent in', () => {
    expect(reactionRefusal(customerMsg, { chat_id: DM })).toBeNull();
    expect(reactionRefusal(groupMsg, { chat_id: DM })).toBe('other_chat');
  });
});
