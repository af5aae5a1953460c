import { z } from 'zod';

/** Wire shape of a chat (spec §3 names; browser-safe). Timestamps are epoch **ms**. */
export const LatestMessage = z.object({
  unique_id: z.string(),
  message_id: z.string().nullish(),
  body: z.string().nullish(),
  message_type: z.string(),
  from_me: z.boolean(),
  ack: z.number(),
  timestamp: z.number(),
  author: z.string().nullish(),
});
export type LatestMessage = z.infer<typeof LatestMessage>;

export const Chat = z.object({
  org_id: z.string(),
  chat_id: z.string(),
  chat_name: z.string().nullish(),
  chat_image: z.string().nullish(),
  chat_type: z.enum(['user', 'group', 'other']),
  org_phone: z.string(),
  phone_id: z.string(),
  chat_org_phones: z.array(z.string()).nullish(),
  latest_message: LatestMessage.nullish(),
  latest_message_timestamp: z.number(),
  latest_message_timestamp_map: z.record(z.number()).nullish(),
  /** per org phone */
  unread_count: z.record(z.number()).nullish(),
  message_unread_count: z.number().nullish(),
  last_customer_message_at: z.record(z.number()).nullish(),
  members: z.record(z.object({ contact_name: z.string().nullish(), contact_id: z.string() })).nullish(),
  label_ids: z.array(z.string()).nullish(),
  /** per org phone: flagged messages waiting for a reply */
  flag_count_map: z.record(z.number()).nullish(),
  flagged_messages: z.record(z.string()).nullish(),
  /** { [unique_id]: { expires_at, pinned_by, pinned_at, body } } */
  pinned_messages: z.record(z.object({ expires_at: z.number(), pinned_by: z.string(), pinned_at: z.number(), body: z.string().nullish() })).nullish(),
  assigned_to: z.string().nullish(),
  closed_at: z.number().nullish(),
  is_muted: z.boolean().nullish(),
  is_archived: z.boolean().nullish(),
  created_at: z.number().nullish(),
});
export type Chat = z.infer<typeof Chat>;

/** Total unread of a chat across its org phones. */
export const totalUnread = (chat: Pick<Chat, 'unread_count'>): number =>
  Object.values(chat.unread_count ?? {}).reduce((a, b) => a + b, 0);
