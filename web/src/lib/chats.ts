/**
 * Pure helpers for the chat list: merge by chat_id and keep the list newest first
 * (latest_message_timestamp desc). Used by the list pages and by realtime events.
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import { totalUnread } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';

export const compareChats = (a: Chat, b: Chat): number =>
  b.latest_message_timestamp - a.latest_message_timestamp || (a.chat_id < b.chat_id ? -1 : a.chat_id > b.chat_id ? 1 : 0);

/** A newer (or same-age) snapshot replaces the stored one; an older snapshot never overwrites a newer one. */
function pick(existing: Chat | undefined, incoming: Chat): Chat {
  if (!existing) return incoming;
  return incoming.latest_message_timestamp >= existing.latest_message_timestamp ? incoming : existing;
}

/** Merge chats into a list (by chat_id) and re-sort. Returns the same array when nothing changed. */
export function upsertChats(list: Chat[], incoming: Chat[]): Chat[] {
  if (incoming.length === 0) return list;
  const byId = new Map(list.map((c) => [c.chat_id, c]));
  let changed = false;
  for (const c of incoming) {
    const prev = byId.get(c.chat_id);
    const next = pick(prev, c);
    if (next !== prev) {
      byId.set(c.chat_id, next);
      changed = true;
    }
  }
  if (!changed) return list;
  return [...byId.values()].sort(compareChats);
}

/** Reflect a message's new state in its chat's preview when it is the chat's latest message. */
export function patchLatestMessage(list: Chat[], chatId: string, m: Message): Chat[] {
  const i = list.findIndex((c) => c.chat_id === chatId);
  if (i < 0) return list;
  const chat = list[i];
  const lm = chat.latest_message;
  const isLatest = lm ? lm.unique_id === m.unique_id : false;
  const isNewer = m.timestamp > chat.latest_message_timestamp;
  if (!isLatest && !isNewer) return list;
  const next: Chat = {
    ...chat,
    latest_message: {
      unique_id: m.unique_id,
      message_id: m.message_id,
      body: m.body,
      message_type: m.message_type,
      from_me: m.from_me,
      ack: m.ack,
      timestamp: m.timestamp,
      author: m.author,
    },
    latest_message_timestamp: Math.max(chat.latest_message_timestamp, m.timestamp),
  };
  const out = list.slice();
  out[i] = next;
  return isNewer ? out.sort(compareChats) : out;
}

/** Number of chats with at least one unread message (the /chats badge). */
export const unreadChatCount = (list: Chat[]): number => list.reduce((n, c) => n + (totalUnread(c) > 0 ? 1 : 0), 0);
