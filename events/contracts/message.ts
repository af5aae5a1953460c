import { z } from 'zod';

/**
 * Contracts of the message events. The chat and message snapshots are the API's wire shapes
 * (spec §3 field names); only the fields consumers rely on are required here, the rest pass through.
 */
export const ChatSnapshot = z
  .object({ chat_id: z.string(), org_id: z.string(), latest_message_timestamp: z.number() })
  .passthrough();

export const MessageSnapshot = z
  .object({
    chat_id: z.string(),
    unique_id: z.string(),
    /** epoch ms */
    timestamp: z.number(),
    from_me: z.boolean(),
    ack: z.number().int().min(-1).max(4),
    message_type: z.string(),
  })
  .passthrough();

/** message.received v1: a customer message was stored (first time only per wamid). */
export const MessageReceivedV1 = z.object({ org_id: z.string(), chat: ChatSnapshot, message: MessageSnapshot });
/** message.sent v1: a member wrote a message; it is stored with ack 0 and queued for WhatsApp. */
export const MessageSentV1 = z.object({ org_id: z.string(), chat: ChatSnapshot, message: MessageSnapshot });
/** message.status_updated v1: ack / delivery_info / delivery_error of a message changed. */
export const MessageStatusUpdatedV1 = z.object({ org_id: z.string(), chat_id: z.string(), message: MessageSnapshot });
/** message.updated v1: a message changed otherwise (reactions, wamid assigned, media downloaded or failed, edited or deleted for everyone — with edit_status / delete_status while WhatsApp confirms). */
export const MessageUpdatedV1 = z.object({ org_id: z.string(), chat_id: z.string(), message: MessageSnapshot });

/**
 * message.reaction v1 (issue 17: the "a reaction is received" trigger): one sender's reaction on a
 * message was set or removed by a customer (webhook, WhatsApp Web) or a member, published in the
 * same transaction as the reaction's write (shared/message/reactions.ts writeReaction). `message` is
 * the reacted message after the change; `reaction.emoji` null = removed; `sender_id` is the
 * customer's number, or the member's reaction key for ours (`from_me`). Times epoch ms.
 */
export const MessageReactionV1 = z.object({
  org_id: z.string(),
  chat_id: z.string(),
  message: MessageSnapshot,
  reaction: z.object({ sender_id: z.string(), emoji: z.string().nullable(), from_me: z.boolean(), timestamp: z.number() }),
});
