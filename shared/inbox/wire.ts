import type { Chat, LatestMessage } from '../chat/chat.schemas.ts';
import type { Message } from '../message/message.schemas.ts';

/**
 * Item -> wire shape: drop storage-only attributes (`version`, `created_at` of messages is kept).
 * ElectroDB already hides the physical keys.
 */
export function toChatWire(item: Record<string, unknown>): Chat {
  const { version: _v, ...rest } = item;
  return rest as unknown as Chat;
}

export function toMessageWire(item: Record<string, unknown>): Message {
  const { version: _v, created_at: _c, ...rest } = item;
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
