import { z } from 'zod';
import type { ChatSla } from '../sla/sla.rules.ts';

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
  /** deleted for everyone (issue 5): the preview says so */
  is_deleted: z.boolean().nullish(),
});
export type LatestMessage = z.infer<typeof LatestMessage>;

export const Chat = z.object({
  org_id: z.string(),
  chat_id: z.string(),
  chat_name: z.string().nullish(),
  /**
   * issue 41: who the customer of a 1:1 chat is: `wa_id` (their number, digits; absent while WhatsApp
   * has not shared it, masked for members when the org masks numbers), `user_id` (BSUID),
   * `parent_user_id`, `username`
   */
  identity: z.object({ wa_id: z.string().nullish(), user_id: z.string().nullish(), parent_user_id: z.string().nullish(), username: z.string().nullish() }).nullish(),
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
  /** groups: subject and admins (digits; customers' masked for members when the org masks numbers) read from WhatsApp; epoch ms fetched_at (group-metadata.rules.ts) */
  group_metadata: z.object({ subject: z.string().nullish(), admins: z.array(z.string()), is_community: z.boolean().nullish(), fetched_at: z.number() }).nullish(),
  assigned_to: z.string().nullish(),
  /** epoch ms; closed while later than latest_message_timestamp (spec §4) */
  closed_at: z.number().nullish(),
  closed_by: z.string().nullish(),
  is_muted: z.boolean().nullish(),
  is_archived: z.boolean().nullish(),
  /** per member (the viewer's own pin) */
  is_pinned: z.boolean().nullish(),
  /** epoch ms of the viewer's own 'close for me' (closed for them while later than the latest message) */
  closed_for_me_at: z.number().nullish(),
  snooze_metadata: z.object({ snooze_until: z.number(), snoozed_by: z.string().nullish(), snoozed_at: z.number().nullish() }).nullish(),
  /** spec §6: member email -> may see; unset = everyone */
  chat_access: z.record(z.boolean()).nullish(),
  marked_unread: z.boolean().nullish(),
  /** the folder the chat is in: open ('All'), closed, snoozed, archived (shared/chat/chat-state.rules.ts) */
  inbox_state: z.enum(['open', 'closed', 'snoozed', 'archived']).nullish(),
  /** false: the viewer may not open this chat; only chat_id and times are given (spec §6) */
  has_access: z.boolean().nullish(),
  created_at: z.number().nullish(),
  /** spec §3: property_id -> value (issue 15, shared/property) */
  custom_properties: z.record(z.string()).nullish(),
});
/** Chat.ai_metadata (issue 18; shared/ai/ai.schemas.ts AiMetadata is its schema): epoch ms. */
export interface ChatAiMetadata {
  activation_state: 'inactive' | 'active' | 'thinking' | 'paused' | 'handed_off';
  paused_until?: number | null;
  pending?: { unique_id: string; due_at: number } | null;
  reason?: string | null;
  updated_by?: string | null;
  updated_at?: number | null;
}
/** spec §3 ai_metadata (issue 18) is typed here only: the Chat schema ships in the web entry bundle, and chats are never parsed with it (wire shapes pass through). */
export type Chat = z.infer<typeof Chat> & { ai_metadata?: ChatAiMetadata | null; /** issue 17 §6: the chat's SLA clocks (shared/sla/sla.rules.ts) */ sla?: ChatSla | null };

const emails = z.string().trim().toLowerCase().email('must be an email address');
const chatIds = z
  .array(z.string().min(1, 'must not be empty').max(200, 'is too long'), { required_error: 'is required', invalid_type_error: 'must be a list of chat ids' })
  .min(1, 'must name at least one chat')
  .max(100, 'must name at most 100 chats (use a bulk job for more)');

/** GET /chats query: one folder plus any of the filters (combinable), newest first, cursor paged (limit ≤ 1000, spec §7). */
export const ListChatsQuery = z.object({
  state: z.enum(['open', 'closed', 'snoozed', 'archived']).default('open'),
  unread: z.enum(['true', 'false']).optional(),
  /** 'me', 'none' (unassigned) or a member email */
  assignee: z.string().trim().toLowerCase().min(1).max(320).optional(),
  label_id: z.string().min(1).max(100).optional(),
  /** org_phone (digits) */
  phone: z.string().regex(/^\d{5,20}$/, 'must be the number in digits').optional(),
  type: z.enum(['user', 'group']).optional(),
  /** issue 15 item 4: chats whose custom property `property_id` has the value `property_value` (both or neither; checked in listChats: 400 query.property_value) */
  property_id: z.string().trim().min(1, 'must not be empty').max(100, 'is too long').optional(),
  /** a dropdown's option id, or the text / number / date (text matches whatever the case) */
  property_value: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').optional(),
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(50),
  cursor: z.string().max(2000, 'is too long').optional(),
});
export type ListChatsQuery = z.infer<typeof ListChatsQuery>;
/** GET /chats/pinned query: the list's filters; every pinned chat at once, so no page size or cursor. */
export const PinnedChatsQuery = ListChatsQuery.omit({ cursor: true, limit: true });
export type PinnedChatsQuery = z.infer<typeof PinnedChatsQuery>;

/** POST /chats/assign (spec §7 chat assignment): `assigned_to` member email, or null to unassign. */
export const AssignChatsInput = z.object({ chat_ids: chatIds, assigned_to: emails.nullable() });
/** POST /chats/labels (spec §7 chat label update): `label_ids` sets the labels; or `add` / `remove` some. */
export const ChatLabelsInput = z
  .object({
    chat_ids: chatIds,
    label_ids: z.array(z.string().min(1)).max(20, 'must be at most 20 labels').optional(),
    add: z.array(z.string().min(1)).max(20, 'must be at most 20 labels').optional(),
    remove: z.array(z.string().min(1)).max(20, 'must be at most 20 labels').optional(),
  })
  .refine((v) => v.label_ids || v.add || v.remove, { message: 'give label_ids, add or remove', path: ['label_ids'] });
/** POST /chats/close (spec §7 chat close): is_closed, and type 'me' for 'Close for me'. */
export const CloseChatsInput = z.object({ chat_ids: chatIds, is_closed: z.boolean({ required_error: 'is required', invalid_type_error: 'must be true or false' }), type: z.enum(['me', 'all']).default('all') });
/** POST /chats/snooze: snooze_until epoch ms, or null to wake now. */
export const SnoozeChatsInput = z.object({ chat_ids: chatIds, snooze_until: z.number({ invalid_type_error: 'must be a time in epoch ms or null' }).int('must be a whole number of ms').nullable() });
export const FlagChatsInput = (field: 'is_archived' | 'is_muted' | 'is_pinned') =>
  z.object({ chat_ids: chatIds, [field]: z.boolean({ required_error: 'is required', invalid_type_error: 'must be true or false' }) } as Record<string, z.ZodTypeAny>);
/** POST /chats/{chat_id}/active-phone (spec §7 active-phone update): the org number that answers. */
export const ActivePhoneInput = z.object({ phone: z.string({ required_error: 'is required' }).regex(/^\d{5,20}$/, 'must be the number in digits') });
/** PUT /chats/{chat_id}/access (admins): member email -> may see; {} = everyone. */
export const ChatAccessInput = z.object({ chat_access: z.record(z.boolean()).refine((m) => Object.keys(m).length <= 500, 'must list at most 500 members') });

/** Org chat label (spec §2 /settings/labels). */
export const ChatLabel = z.object({ label_id: z.string(), name: z.string(), color: z.string(), usage_count: z.number().optional() });
export type ChatLabel = z.infer<typeof ChatLabel>;
/** Longest chat label name (characters). */
export const LABEL_NAME_MAX = 50;
export const ChatLabelInput = z.object({
  name: z.string({ required_error: 'is required' }).trim().min(1, 'must not be empty').max(LABEL_NAME_MAX, `must be at most ${LABEL_NAME_MAX} characters`),
  color: z.string({ required_error: 'is required' }).regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1f7a8c'),
});
export const ChatLabelPatch = ChatLabelInput.partial().refine((v) => v.name !== undefined || v.color !== undefined, { message: 'give name or color', path: ['name'] });

/** Result of a write over several chats: what changed, and why others did not. */
export interface ChatBatchResult {
  chats: Chat[];
  failed: Array<{ chat_id: string; reason: string }>;
}

/** Total unread of a chat across its org phones. */
export const totalUnread = (chat: Pick<Chat, 'unread_count'>): number =>
  Object.values(chat.unread_count ?? {}).reduce((a, b) => a + b, 0);
