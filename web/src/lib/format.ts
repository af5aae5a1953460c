/**
 * Display helpers: chat names and numbers, avatar initials/colours, times (date-fns, user's
 * time zone) and the one-line preview of a message type.
 */
import { format, isToday, isYesterday, isThisWeek } from 'date-fns';
import type { Chat, LatestMessage } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import { maskPhone } from '#shared/chat/chat-access.rules.ts';
import { chatNumberOf, isOpaqueChatId } from '#shared/contact/identity.rules.ts';

/** Words shown for a customer WhatsApp has not told us the number of (issue 41). */
export const IDENTITY_TEXT = {
  unknownCustomer: 'Unknown customer',
  numberNotShared: 'Number not shared',
} as const;

/** What a chat's name and number are read from (a Chat, or a row of another list that names a chat). */
export type ChatLike = { chat_id: string; chat_type?: string | null; chat_name?: string | null; identity?: Chat['identity'] };

/**
 * The part of a chat id before '@' (the customer's number for `<digits>@c.us`). An opaque id
 * (`cht_…`, a customer first seen without a number, issue 41) is never shown: 'Unknown customer'.
 */
export const chatNumber = (chatId: string): string => (isOpaqueChatId(chatId) ? IDENTITY_TEXT.unknownCustomer : (chatId.split('@')[0] ?? chatId));

/** '+16505551234' for digit strings; an opaque chat id reads 'Unknown customer'; anything else unchanged. */
export const formatPhone = (value: string | null | undefined): string => {
  if (!value) return '';
  const v = chatNumber(value);
  return /^\d+$/.test(v) ? `+${v}` : v;
};

/** A chat known only by its id (logs, scheduled messages…): '+number', or 'Unknown customer' for an opaque id. */
export const chatIdLabel = (chatId: string): string => formatPhone(chatId);

export const isGroupChat = (chat: Pick<ChatLike, 'chat_type' | 'chat_id'>): boolean => chat.chat_type === 'group' || chat.chat_id.endsWith('@g.us');

/**
 * The customer's number of a 1:1 chat for display ('+5511…', or masked '55********23' when
 * `masked`), or null for a group and when WhatsApp has not shared the number (issue 41).
 */
export function customerNumber(chat: ChatLike, masked = false): string | null {
  if (isGroupChat(chat)) return null;
  const n = chatNumberOf(chat.chat_id, { wa_id: chat.identity?.wa_id ?? undefined });
  return n ? formatPhone(masked ? maskPhone(n) : n) : null;
}

/** The customer's WhatsApp username ('@ana') of a 1:1 chat, or null. */
export const chatUsername = (chat: ChatLike): string | null => (isGroupChat(chat) ? null : chat.identity?.username?.trim() || null);

/**
 * A chat's name: its saved name, else for a 1:1 chat the number (masked when `masked`), the
 * WhatsApp username, or 'Unknown customer' — never an opaque `cht_…` id.
 */
export function chatDisplayName(chat: ChatLike, masked = false): string {
  const name = chat.chat_name?.trim();
  if (name) return name;
  if (isGroupChat(chat)) return 'Group chat';
  return customerNumber(chat, masked) ?? chatUsername(chat) ?? IDENTITY_TEXT.unknownCustomer;
}

/** Up to two letters from a name; '#' for bare numbers. */
export function initials(name: string): string {
  const words = name.replace(/[^\p{L}\p{N}\s]/gu, ' ').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0 || /^\d/.test(words[0])) return '#';
  const letters = (words[0][0] ?? '') + (words.length > 1 ? (words[words.length - 1][0] ?? '') : '');
  return letters.toUpperCase();
}

/** A stable hue per chat for its avatar. */
export function avatarHue(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return h % 360;
}

/** Chat-list time: 'HH:mm' today, 'Yesterday', else 'dd/MM/yy'. */
export function listTime(ts: number): string {
  if (!ts) return '';
  if (isToday(ts)) return format(ts, 'HH:mm');
  if (isYesterday(ts)) return 'Yesterday';
  return format(ts, 'dd/MM/yy');
}

/** Exact time for tooltips. */
export const exactTime = (ts: number): string => (ts ? format(ts, 'EEEE d MMM yyyy, HH:mm:ss') : '');

/** Bubble time. */
export const bubbleTime = (ts: number): string => format(ts, 'HH:mm');

/** Day separator in a thread. */
export function dayLabel(ts: number): string {
  if (isToday(ts)) return 'Today';
  if (isYesterday(ts)) return 'Yesterday';
  if (isThisWeek(ts, { weekStartsOn: 1 })) return format(ts, 'EEEE');
  return format(ts, 'd MMM yyyy');
}

export const dayKey = (ts: number): string => format(ts, 'yyyy-MM-dd');

const TYPE_LABELS: Record<string, string> = {
  image: '📷 Photo',
  video: '🎥 Video',
  audio: '🎵 Audio',
  ptt: '🎤 Voice message',
  document: '📄 Document',
  sticker: '💟 Sticker',
  location: '📍 Location',
  contacts: '👤 Contact',
  button: '🔘 Button reply',
  interactive: '🔘 Reply',
  reaction: 'Reaction',
  order: '🛒 Order',
  unsupported: '⚠️ Unsupported message',
  system: 'ℹ️ System message',
};

/** Short label of a message type ('📷 Photo'); '' for text. */
export const typeLabel = (type: string): string => (type === 'text' ? '' : (TYPE_LABELS[type] ?? `Message (${type})`));

/** Human name of a media type for the placeholder card. */
export const MEDIA_NAMES: Record<string, string> = {
  image: 'Photo',
  video: 'Video',
  audio: 'Audio',
  ptt: 'Voice message',
  document: 'Document',
  sticker: 'Sticker',
};

/** One-line preview of a message (chat list). */
export function previewText(m: (Pick<LatestMessage, 'message_type' | 'body'> & { is_deleted?: boolean | null }) | null | undefined): string {
  if (!m) return '';
  if (m.is_deleted) return '🚫 This message was deleted';
  const body = m.body?.replace(/\s+/g, ' ').trim() ?? '';
  if (m.message_type === 'text') return body;
  if (m.message_type === 'reaction') return body ? `Reacted ${body}` : 'Removed a reaction';
  const label = typeLabel(m.message_type);
  if (!body) return label;
  // keep the type's emoji, show the caption / title instead of the type name
  return label.startsWith('Message (') ? body : `${label.split(' ')[0]} ${body}`;
}

/** Name of a message's author in a group: the member's contact name, the WhatsApp profile name, or the number. */
export function authorName(chat: Pick<Chat, 'members'> | null | undefined, m: Pick<Message, 'author' | 'sender_phone'>): string {
  const key = m.sender_phone ?? m.author ?? '';
  const member = key ? chat?.members?.[key] ?? chat?.members?.[`${key}@c.us`] : undefined;
  if (member?.contact_name) return member.contact_name;
  if (m.author && !/^\d+(@.*)?$/.test(m.author)) return m.author;
  return formatPhone(m.sender_phone ?? m.author ?? '');
}
