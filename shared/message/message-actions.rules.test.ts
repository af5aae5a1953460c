import { describe, expect, it } from 'vitest';
import { DELETE_TOO_OLD, MESSAGE_ACTIONS, messageMenu, type ActionContext, type ActionMessage, type MessageAction } from './message-actions.rules.ts';
import { CAPABILITIES } from '../whatsapp/capabilities.ts';

/** spec §5 message actions, table-driven, with the boundaries of each window. */
const NOW = Date.UTC(2027, 3, 1, 12, 0);
const MIN = 60_000;
const msg = (m: Partial<ActionMessage> = {}): ActionMessage => ({ unique_id: 'U', message_id: 'wamid.1', from_me: true, ack: 2, timestamp: NOW - MIN, message_type: 'text', author: 'me@x.com', ...m });
const ctx = (m: Partial<ActionMessage> = {}, c: Partial<ActionContext> = {}): ActionContext => ({
  message: msg(m),
  chat: { chat_type: 'user' },
  actor: { email: 'me@x.com', role: 'member' },
  maskPhoneNumbers: false,
  capabilities: CAPABILITIES.wa_web,
  ownPhones: ['15550001111'],
  chatTickets: [],
  now: NOW,
  ...c,
});

type Row = [string, MessageAction, ActionContext, boolean, string?];
const rows: Row[] = [
  // edit: own, sent, within 15 minutes, not deleted, not a contact card, and only where the number can edit
  ['edit at 14:59', 'edit', ctx({ timestamp: NOW - 14 * MIN - 59_000 }), true],
  ['edit at 15:01', 'edit', ctx({ timestamp: NOW - 15 * MIN - 1000 }), false, 'Messages can be edited only within 15 minutes.'],
  ['edit a customer message', 'edit', ctx({ from_me: false }), false],
  ['edit while pending (ack 0)', 'edit', ctx({ ack: 0 }), false],
  ['edit a contact card', 'edit', ctx({ message_type: 'contacts' }), false],
  ['edit a deleted message', 'edit', ctx({ is_deleted: true }), false],
  ['edit before WhatsApp has it', 'edit', ctx({ ack: 1, message_id: null }), false, 'This message has not reached WhatsApp yet.'],
  ['edit on the Cloud API', 'edit', ctx({}, { capabilities: CAPABILITIES.wa_cloud }), false, 'This number cannot edit sent messages.'],
  // delete: 48 hours, ack not negative, group admin rules
  ['delete at 47:59', 'delete', ctx({ timestamp: NOW - 47 * 60 * MIN - 59 * MIN }), true],
  ['delete at 48:01', 'delete', ctx({ timestamp: NOW - 48 * 60 * MIN - MIN }), false, DELETE_TOO_OLD],
  ['delete a failed message', 'delete', ctx({ ack: -1 }), false],
  ['delete a deleted message', 'delete', ctx({ is_deleted: true }), false],
  ['delete a customer message in a 1:1 chat', 'delete', ctx({ from_me: false }), true],
  ['delete own in a group', 'delete', ctx({}, { chat: { chat_type: 'group' }, group: { phoneIsAdmin: false, senderIsAdmin: false } }), true],
  ['delete another member’s in a group, we are admin', 'delete', ctx({ from_me: false }, { chat: { chat_type: 'group' }, group: { phoneIsAdmin: true, senderIsAdmin: false } }), true],
  ['delete another member’s in a group, sender is admin', 'delete', ctx({ from_me: false }, { chat: { chat_type: 'group' }, group: { phoneIsAdmin: false, senderIsAdmin: true } }), true],
  ['delete another member’s in a group, no admin', 'delete', ctx({ from_me: false }, { chat: { chat_type: 'group' }, group: { phoneIsAdmin: false, senderIsAdmin: false } }), false],
  ['delete before WhatsApp has it', 'delete', ctx({ message_id: null }), false, 'This message has not reached WhatsApp yet.'],
  ['delete on the Cloud API', 'delete', ctx({}, { capabilities: CAPABILITIES.wa_cloud }), false],
  ['delete my private note', 'delete', ctx({ is_private_note: true, message_id: null }, { capabilities: CAPABILITIES.wa_cloud }), true],
  ['delete someone else’s private note', 'delete', ctx({ is_private_note: true, author: 'other@x.com' }), false, 'Only the author can delete this note'],
  // delete note: the author only (admins too need to be the author), once, notes only
  ['delete note, author', 'delete_note', ctx({ is_private_note: true, message_id: null, ack: 0 }), true],
  ['delete note, author with another email case', 'delete_note', ctx({ is_private_note: true, author: 'Me@X.com' }), true],
  ['delete note, another member', 'delete_note', ctx({ is_private_note: true, author: 'other@x.com' }), false, 'Only the author can delete this note'],
  ['delete note, an admin who is not the author', 'delete_note', ctx({ is_private_note: true, author: 'other@x.com' }, { actor: { email: 'a@x.com', role: 'admin' } }), false, 'Only the author can delete this note'],
  ['delete note, already deleted', 'delete_note', ctx({ is_private_note: true, is_deleted: true }), false],
  ['delete note on a message that is not a note', 'delete_note', ctx(), false],
  // react
  ['react on the Cloud API', 'react', ctx({ from_me: false }, { capabilities: CAPABILITIES.wa_cloud }), true],
  ['react to a private note', 'react', ctx({ is_private_note: true }), false],
  ['react to a reaction', 'react', ctx({ message_type: 'reaction' }), false],
  ['react to a 31-day-old message', 'react', ctx({ timestamp: NOW - 31 * 24 * 60 * MIN }), false],
  ['react before WhatsApp has it', 'react', ctx({ message_id: null }), false],
  // forward, reply privately
  ['forward a text', 'forward', ctx(), true],
  ['forward a private note', 'forward', ctx({ is_private_note: true }), false],
  ['forward a poll', 'forward', ctx({ message_type: 'poll_creation' }), false],
  ['reply privately in a user chat', 'reply_privately', ctx({ from_me: false }), false],
  ['reply privately to a group member', 'reply_privately', ctx({ from_me: false, sender_phone: '15557770000' }, { chat: { chat_type: 'group' } }), true],
  ['reply privately to our own number', 'reply_privately', ctx({ from_me: false, sender_phone: '15550001111' }, { chat: { chat_type: 'group' } }), false],
  ['reply privately to a private note', 'reply_privately', ctx({ is_private_note: true, from_me: false }, { chat: { chat_type: 'group' } }), false],
  // flags and pins
  ['flag an unflagged message', 'flag', ctx({ flag_status: null }), true],
  ['flag a flagged message', 'flag', ctx({ flag_status: true }), false],
  ['unflag a flagged message', 'unflag', ctx({ flag_status: true }), true],
  ['remove an answered flag', 'remove_flag', ctx({ flag_status: false }), true],
  ['remove a flag that is not there', 'remove_flag', ctx({ flag_status: null }), false],
  ['pin', 'pin', ctx({ pinned_until: null }), true],
  ['unpin an expired pin', 'unpin', ctx({ pinned_until: NOW - 1 }), false],
  ['unpin a live pin', 'unpin', ctx({ pinned_until: NOW + 1 }), true],
  // copy id with masking
  ['copy id, member, masking on', 'copy_id', ctx({}, { maskPhoneNumbers: true }), false],
  ['copy id, admin, masking on', 'copy_id', ctx({}, { maskPhoneNumbers: true, actor: { email: 'a@x.com', role: 'admin' } }), true],
  ['copy id, member, masking off', 'copy_id', ctx(), true],
  // download, tickets, FAQs
  ['download an image', 'download', ctx({ message_type: 'image', media: { media_id: 'M1' } }), true],
  ['download a text', 'download', ctx(), false],
  ['create ticket, no ticket yet', 'create_ticket', ctx(), true],
  ['create ticket, already in one', 'create_ticket', ctx({ message_ticket_id: 'tkt_1' }), false],
  ['attach, chat has an open ticket', 'attach_to_ticket', ctx({}, { chatTickets: [{ status: 'inprogress' }] }), true],
  ['attach, only closed tickets', 'attach_to_ticket', ctx({}, { chatTickets: [{ status: 'closed' }] }), false],
  ['add own document to FAQs', 'add_to_faq', ctx({ message_type: 'document' }), true],
  ['add a customer message to FAQs', 'add_to_faq', ctx({ from_me: false }), false],
  ['add own audio to FAQs', 'add_to_faq', ctx({ message_type: 'audio' }), false],
];

describe('message actions (spec §5)', () => {
  it.each(rows)('%s', (_name, action, c, allowed, reason) => {
    const r = MESSAGE_ACTIONS[action](c);
    expect(r.allowed).toBe(allowed);
    if (reason) expect(r.reason).toBe(reason);
    if (!allowed) expect(r.reason).toBeTruthy();
  });

  it('the Cloud API menu offers reply and react but never edit or delete-for-everyone', () => {
    const menu = messageMenu(ctx({}, { capabilities: CAPABILITIES.wa_cloud }));
    const allowed = menu.filter((m) => m.allowed).map((m) => m.action);
    expect(allowed).toEqual(expect.arrayContaining(['reply', 'react', 'forward', 'flag', 'pin', 'refresh', 'copy_id', 'create_ticket', 'add_to_faq']));
    expect(allowed).not.toContain('edit');
    expect(allowed).not.toContain('delete');
  });
});
