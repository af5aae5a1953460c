/**
 * Who may change a stored message through a WhatsApp protocol message (an edit, a revoke = delete
 * for everyone, a reaction) received on a linked WhatsApp Web number. Pure. WhatsApp's own rules
 * (whatsapp-protocols.md §B.4, §B.9; spec §5 'Delete: … in groups only if the phone is a group
 * admin, the sender is admin, or the message is own'):
 * - an edit comes from the message's author, in the message's chat;
 * - a revoke comes from the author, or, in a group, from one of its admins (the admins kept on the
 *   group chat, `group_metadata.admins`, chat/group-metadata.rules.ts), in the message's chat;
 * - a reaction is its sender's own, on a message of the chat it was sent in.
 *
 * The message id alone proves nothing: a WhatsApp message id is chosen by the sending client, and
 * ids of group messages are known to every participant. Who sent the change comes from the
 * stanza's key (Baileys `key.participant` / `key.remoteJid` / `key.fromMe`, set from what the
 * server delivered), never from the protocol message's body (its `key` names only the target).
 *
 * Numbers are compared as digits (`15551234567`): ours (`org_phone`) for a message we sent and
 * for a change made from our number's phone (`fromMe`), else the customer's (`sender_phone`).
 */

/** The stored message a change targets (the fields the rule reads). */
export interface TargetMessage {
  chat_id: string;
  from_me: boolean;
  /** digits of the sender of a customer's message */
  sender_phone?: string | null;
  /** digits of our number the message is on */
  org_phone?: string | null;
}

/** Who made the change and where it arrived. */
export interface ProtocolChange {
  /** the chat the protocol message was received in (its stanza's chat) */
  chat_id: string;
  /** digits of who sent it: a participant, the 1:1 customer, or our number when `from_me` */
  sender: string;
  /** sent from our number's phone */
  from_me: boolean;
}

/** Why a change was refused (logs and tests), or null when it applies. */
export type ProtocolRefusal = 'other_chat' | 'not_author' | 'not_author_or_group_admin' | null;

const digits = (v: string | null | undefined): string => (v ?? '').split('@')[0]!.split(':')[0]!.replace(/^\+/, '');

/** Did the change's sender write the message? Ours only when both are ours, a customer's only when both are that customer's. */
export function isAuthor(m: TargetMessage, c: Pick<ProtocolChange, 'sender' | 'from_me'>): boolean {
  const author = digits(m.from_me ? m.org_phone : m.sender_phone);
  return !!author && m.from_me === c.from_me && author === digits(c.sender);
}

/** May this edit change the message? (the author, in the same chat) */
export function editRefusal(m: TargetMessage, c: ProtocolChange): ProtocolRefusal {
  if (m.chat_id !== c.chat_id) return 'other_chat';
  return isAuthor(m, c) ? null : 'not_author';
}

/**
 * May this revoke delete the message for everyone? (the author; in a group also a group admin; in the same chat)
 * @param chat the message's chat: its type and the admins kept on it (digits); unknown admins allow no one else
 */
export function revokeRefusal(m: TargetMessage, c: ProtocolChange, chat: { chat_type?: string | null; group_metadata?: { admins?: unknown } | null } | null | undefined): ProtocolRefusal {
  if (m.chat_id !== c.chat_id) return 'other_chat';
  if (isAuthor(m, c)) return null;
  const admins = chat?.chat_type === 'group' && Array.isArray(chat.group_metadata?.admins) ? (chat.group_metadata!.admins as unknown[]).map((a) => digits(String(a))) : [];
  return admins.includes(digits(c.sender)) ? null : 'not_author_or_group_admin';
}

/** May this reaction land on the message? (only on a message of the chat it was sent in; it is always its sender's own) */
export function reactionRefusal(m: Pick<TargetMessage, 'chat_id'>, c: Pick<ProtocolChange, 'chat_id'>): ProtocolRefusal {
  return m.chat_id === c.chat_id ? null : 'other_chat';
}
