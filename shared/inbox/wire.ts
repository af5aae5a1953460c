import type { Chat, LatestMessage } from '../chat/chat.schemas.ts';
import type { Message } from '../message/message.schemas.ts';

/**
 * Item -> wire shape: drop storage-only attributes (`version`; a chat's index keys `assignee_key`
 * and `unread_key`, which `assigned_to` and the unread counts already say).
 * ElectroDB already hides the physical keys.
 */
export function toChatWire(item: Record<string, unknown>): Chat {
  const { version: _v, assignee_key: _a, unread_key: _u, ...rest } = item;
  return rest as unknown as Chat;
}

export function toMessageWire(item: Record<string, unknown>): Message {
  const { version: _v, created_at: _c, send_started_at: _s, ...rest } = item;
  return rest as unknown as Message;
}

/** The chat-row summary of a message (Chat.latest_message). */
export function latestOf(m: Pick<Message, 'unique_id' | 'message_id' | 'body' | 'message_type' | 'from_me' | 'ack' | 'timestamp' | 'author'>): LatestMessage {
  return {
    unique_id: m.unique_id,
    message_id: m.message_id ?? null,
    body: m.body ?? null,
    message_type: m.message_type,
    from_me: m.from_me,
    ack: m.ack,
    timestamp: m.timestamp,
    author: m.author ?? null,
  };
}
