import { MEDIA_MESSAGE_TYPES } from '../media/media.rules.ts';
import type { Eligibility } from '../ticket/ticket.rules.ts';
import { canAttachToTicket, canCreateTicket } from '../ticket/ticket.rules.ts';
import { type Capabilities, DELETE_WINDOW_MS, EDIT_WINDOW_MS } from '../whatsapp/capabilities.ts';

/**
 * Which actions a member may take on one message (spec §5 'Message actions', §6 masking), in one
 * pure module: the API refuses with the `reason`, the web app shows the context menu from
 * `messageMenu()`. Each rule also asks the number's connection what it can do
 * (`Capabilities`, whatsapp-protocols.md §C: the Cloud API can react and reply but not edit or
 * delete for everyone). Times are epoch **ms**.
 */

// the windows are defined once, with the connection capabilities that apply them
export { DELETE_WINDOW_MS, EDIT_WINDOW_MS } from '../whatsapp/capabilities.ts';
/** Meta refuses a reaction to a message older than 30 days (error 131009, whatsapp-protocols.md A.6). */
export const REACT_WINDOW_MS = 30 * 24 * 3_600_000;
/** spec §8 */
export const DELETE_TOO_OLD = 'Cannot delete messages older than 48 hrs';

export interface ActionMessage {
  unique_id: string;
  message_id?: string | null;
  from_me: boolean;
  ack: number;
  timestamp: number;
  message_type: string;
  is_deleted?: boolean | null;
  is_private_note?: boolean | null;
  sender_phone?: string | null;
  author?: string | null;
  flag_status?: boolean | null;
  /** epoch ms until which the message is pinned, or null */
  pinned_until?: number | null;
  message_ticket_id?: string | null;
  media?: { media_id?: string | null; path?: string | null } | null;
}

export interface ActionContext {
  message: ActionMessage;
  chat: { chat_type: 'user' | 'group' | 'other' };
  actor: { email: string; role: 'admin' | 'member' };
  /** org preference mask_phone_numbers (spec §6) */
  maskPhoneNumbers: boolean;
  /** what the answering number's connection supports */
  capabilities: Capabilities;
  /** display numbers of the org's own phones (to spot own-number senders) */
  ownPhones: readonly string[];
  /** groups: is our number an admin of the group; is the message's sender one */
  group?: { phoneIsAdmin: boolean; senderIsAdmin: boolean };
  /** the chat's tickets (for Attach to ticket) */
  chatTickets: ReadonlyArray<{ status: 'open' | 'inprogress' | 'closed' }>;
  now: number;
}

const yes: Eligibility = { allowed: true };
const no = (reason: string): Eligibility => ({ allowed: false, reason });
const CONTACT_TYPES = new Set(['contacts', 'vcard', 'multi_vcard']);
const POLL_TYPES = new Set(['poll', 'poll_creation']);
const MEDIA_TYPES = new Set<string>(MEDIA_MESSAGE_TYPES);

const NOT_ON_WHATSAPP = no('This message has not reached WhatsApp yet.');

function common(m: ActionMessage): Eligibility | null {
  if (m.is_deleted) return no('This message was deleted.');
  return null;
}

/** Reply (quote) in the same chat. */
export function canReply(c: ActionContext): Eligibility {
  return common(c.message) ?? (c.message.is_private_note ? no('Private notes cannot be quoted to the customer.') : !c.message.message_id ? no('This message has not reached WhatsApp yet.') : yes);
}

/** React with an emoji: the connection must support it; not notes, not reactions, within 30 days, sent to WhatsApp. */
export function canReact(c: ActionContext): Eligibility {
  const m = c.message;
  if (!c.capabilities.react) return no('This number cannot send reactions.');
  return common(m) ?? (m.is_private_note ? no('Private notes cannot get reactions.') : m.message_type === 'reaction' ? no('You cannot react to a reaction.') : !m.message_id ? no('This message has not reached WhatsApp yet.') : c.now - m.timestamp > REACT_WINDOW_MS ? no('WhatsApp allows reactions only to messages from the last 30 days.') : yes);
}

/** spec §5: only own sent messages within 15 minutes, not deleted, not contact cards, ack known (sent: 1 or more). */
export function canEdit(c: ActionContext): Eligibility {
  const m = c.message;
  if (!c.capabilities.edit) return no('This number cannot edit sent messages.');
  if (!m.from_me || m.is_private_note) return no('Only your own sent messages can be edited.');
  return common(m) ?? (CONTACT_TYPES.has(m.message_type) ? no('Contact cards cannot be edited.') : m.ack < 1 ? no('Wait until the message is sent.') : !m.message_id ? NOT_ON_WHATSAPP : c.now - m.timestamp > (c.capabilities.editWindowMs ?? EDIT_WINDOW_MS) ? no('Messages can be edited only within 15 minutes.') : yes);
}

/**
 * spec §5: not older than 48 hours ('Cannot delete messages older than 48 hrs'), not deleted, ack
 * not negative; in groups only if our number is a group admin, the sender is an admin, or the
 * message is our own; in other chats always. Private notes are deleted by their author instead
 * (canDeletePrivateNote).
 */
export function canDelete(c: ActionContext): Eligibility {
  const m = c.message;
  if (m.is_private_note) return canDeletePrivateNote(c);
  if (!c.capabilities.delete) return no('This number cannot delete messages for everyone.');
  const base = common(m);
  if (base) return base;
  if (c.now - m.timestamp > (c.capabilities.deleteWindowMs ?? DELETE_WINDOW_MS)) return no(DELETE_TOO_OLD);
  if (m.ack < 0) return no('A message that failed to send cannot be deleted.');
  // WhatsApp deletes by its own id: a message it never got has nothing to delete there
  if (!m.message_id) return NOT_ON_WHATSAPP;
  if (c.chat.chat_type === 'group' && !(c.group?.phoneIsAdmin || c.group?.senderIsAdmin || m.from_me)) return no('Only group admins can delete other people’s messages.');
  return yes;
}

/** Refusal when someone other than its author deletes a note (the API answers 403 with it). */
export const NOTE_DELETE_NOT_AUTHOR = 'Only the author can delete this note';

/**
 * Private notes: deleted (soft, the row stays as 'This note was deleted') by their author only
 * (issue 4 'deletable by their author'), admins included; never other messages, never twice.
 */
export function canDeletePrivateNote(c: ActionContext): Eligibility {
  const m = c.message;
  if (!m.is_private_note) return no('Only private notes are deleted this way.');
  return common(m) ?? (m.author?.toLowerCase() === c.actor.email.toLowerCase() ? yes : no(NOTE_DELETE_NOT_AUTHOR));
}

/** spec §5: not for private notes or poll creation. */
export function canForward(c: ActionContext): Eligibility {
  const m = c.message;
  return common(m) ?? (m.is_private_note ? no('Private notes cannot be forwarded.') : POLL_TYPES.has(m.message_type) ? no('Polls cannot be forwarded.') : yes);
}

/** spec §5: not for user chats, private notes, or senders that are our own numbers. */
export function canReplyPrivately(c: ActionContext): Eligibility {
  const m = c.message;
  if (c.chat.chat_type !== 'group') return no('Reply privately is for group messages.');
  if (m.is_private_note) return no('Private notes have no sender to reply to.');
  if (m.from_me || (m.sender_phone && c.ownPhones.includes(m.sender_phone))) return no('This message came from one of your numbers.');
  return common(m) ?? yes;
}

/** Flag (set true) when not flagged; Unflag (set false) when flagged; Remove flag (set null) when any flag is set. */
export const canFlag = (c: ActionContext): Eligibility => common(c.message) ?? (c.message.flag_status === true ? no('Already flagged.') : yes);
export const canUnflag = (c: ActionContext): Eligibility => (c.message.flag_status === true ? yes : no('This message is not flagged.'));
export const canRemoveFlag = (c: ActionContext): Eligibility => (c.message.flag_status == null ? no('This message has no flag.') : yes);

const pinned = (c: ActionContext) => c.message.pinned_until != null && c.message.pinned_until > c.now;
export const canPin = (c: ActionContext): Eligibility => common(c.message) ?? (pinned(c) ? no('Already pinned.') : yes);
export const canUnpin = (c: ActionContext): Eligibility => (pinned(c) ? yes : no('This message is not pinned.'));

/** Refresh re-reads delivery info: only for messages we sent to WhatsApp. */
export const canRefresh = (c: ActionContext): Eligibility => (c.message.is_private_note ? no('Private notes are not sent to WhatsApp.') : c.message.from_me ? yes : no('Only messages you sent have delivery info.'));

/** spec §6/§5: Copy Id disabled for non-admins when phone masking is on. */
export const canCopyId = (c: ActionContext): Eligibility => (c.maskPhoneNumbers && c.actor.role !== 'admin' ? no('Message ids are hidden while phone numbers are masked.') : yes);

/** spec §5: Download only when media exists. */
export const canDownload = (c: ActionContext): Eligibility => (MEDIA_TYPES.has(c.message.message_type) && (c.message.media?.media_id || c.message.media?.path) ? common(c.message) ?? yes : no('This message has no media.'));

/** spec §5: Add to FAQs only for our own text, image or document messages. */
export const canAddToFaq = (c: ActionContext): Eligibility =>
  common(c.message) ?? (c.message.from_me && !c.message.is_private_note && ['text', 'chat', 'image', 'document'].includes(c.message.message_type) ? yes : no('Only your own text, image or document messages can become FAQs.'));

export const MESSAGE_ACTIONS = {
  reply: canReply,
  react: canReact,
  edit: canEdit,
  delete: canDelete,
  delete_note: canDeletePrivateNote,
  forward: canForward,
  reply_privately: canReplyPrivately,
  flag: canFlag,
  unflag: canUnflag,
  remove_flag: canRemoveFlag,
  pin: canPin,
  unpin: canUnpin,
  refresh: canRefresh,
  copy_id: canCopyId,
  download: canDownload,
  create_ticket: (c: ActionContext) => canCreateTicket(c.message),
  attach_to_ticket: (c: ActionContext) => canAttachToTicket(c.message, c.chatTickets),
  add_to_faq: canAddToFaq,
} as const;
export type MessageAction = keyof typeof MESSAGE_ACTIONS;

/** The context menu: every action with its eligibility, in menu order (spec §5 / issue 5 list). */
export function messageMenu(c: ActionContext): Array<{ action: MessageAction } & Eligibility> {
  return (Object.keys(MESSAGE_ACTIONS) as MessageAction[]).map((action) => ({ action, ...MESSAGE_ACTIONS[action](c) }));
}
