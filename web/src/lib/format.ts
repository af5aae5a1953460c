/**
 * Display helpers: chat names and numbers, avatar initials/colours, times (date-fns, user's
 * time zone) and the one-line preview of a message type.
 */
import { format, isToday, isYesterday, isThisWeek } from 'date-fns';
import type { Chat, LatestMessage } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';

/** The part of a chat id before '@' (the customer's number for user chats). */
export const chatNumber = (chatId: string): string => chatId.split('@')[0] ?? chatId;

/** '+16505551234' for digit strings; anything else unchanged. */
export const formatPhone = (value: string | null | undefined): string => {
  if (!value) return '';
  const v = value.split('@')[0];
  return /^\d+$/.test(v) ? `+${v}` : v;
};

export const isGroupChat = (chat: Pick<Chat, 'chat_type' | 'chat_id'>): boolean =>
  chat.chat_type === 'group' || chat.chat_id.endsWith('@g.us');

export function chatDisplayName(chat: Pick<Chat, 'chat_name' | 'chat_id' | 'chat_type'>): string {
  const name = chat.chat_name?.trim();
  if (name) return name;
  return isGroupChat(chat) ? 'Group chat' : formatPhone(chatNumber(chat.chat_id));
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
