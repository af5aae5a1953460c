import { z } from 'zod';

/**
 * Wire shapes of messages (browser-safe: imported by the web app and the API).
 * Field names are spec §3's. Timestamps are epoch **ms**.
 */

/** WhatsApp Web ack scale used across Chorus (whatsapp-protocols.md, MessageAck). */
export const ACK = { FAILED: -1, PENDING: 0, SENT: 1, DELIVERED: 2, READ: 3, PLAYED: 4 } as const;

export const DeliveryInfo = z.object({ read_count: z.number(), delivered_count: z.number(), pending: z.number() });

export const DeliveryError = z.object({
  /** Meta error code, e.g. 131047 */
  code: z.number().nullable(),
  title: z.string().nullable(),
  details: z.string().nullable(),
  /** what happened, in words an agent understands */
  reason: z.string(),
});

export const Message = z.object({
  org_id: z.string(),
  chat_id: z.string(),
  unique_id: z.string(),
  message_id: z.string().nullish(),
  sent_message_id: z.string().nullish(),
  org_phone: z.string(),
  phone_id: z.string(),
  sender_phone: z.string().nullish(),
  author: z.string().nullish(),
  body: z.string().nullish(),
  timestamp: z.number(),
  from_me: z.boolean(),
  ack: z.number(),
  delivery_info: DeliveryInfo.nullish(),
  delivery_error: DeliveryError.nullish(),
  /** epoch ms: Chorus cannot tell whether WhatsApp took this message (a crash during the send); the bubble says "may not have been sent" with Retry (issue 23) */
  send_uncertain_at: z.number().nullish(),
  /** times a member pressed Retry on it */
  send_retries: z.number().nullish(),
  is_deleted: z.boolean().nullish(),
  is_private_note: z.boolean().nullish(),
  /** members @mentioned in a private note: email and the name shown after '@' in `body` */
  mentions: z.array(z.object({ email: z.string(), name: z.string() })).nullish(),
  /** spec §4 message flag: true flagged (needs a reply), false answered, null none */
  flag_status: z.boolean().nullish(),
  flag_metadata: z
    .object({ status: z.boolean().nullable(), flagged_by: z.string().nullish(), flagged_at: z.number().nullish(), responded_by: z.string().nullish(), responded_at: z.number().nullish() })
    .nullish(),
  /** epoch ms until which the message is pinned */
  pinned_until: z.number().nullish(),
  /** our last reaction WhatsApp refused (the UI says 'Failed to send reaction!' and shows the reverted state) */
  reaction_error: z.object({ reaction: z.string(), reason: z.string(), at: z.number() }).nullish(),
  /** bodies the message had before its edits, oldest first (issue 5; kept for the team) */
  edit_history: z.array(z.object({ body: z.string().nullish(), edited_at: z.number(), edited_by: z.string().nullish() })).nullish(),
  /** epoch ms of the last edit: the bubble shows 'edited' */
  edited_at: z.number().nullish(),
  /** our own last edit: pending until WhatsApp has it, failed when refused (the body was put back) */
  edit_status: z.enum(['pending', 'sent', 'failed']).nullish(),
  edit_error: z.object({ body: z.string().nullish(), reason: z.string(), at: z.number() }).nullish(),
  /** deleted for everyone: epoch ms and by whom (member email, or 'whatsapp:<number>'); the body stays for the team's audit */
  deleted_at: z.number().nullish(),
  deleted_by: z.string().nullish(),
  /** our own delete: pending until WhatsApp has it, failed when refused (the message is shown again) */
  delete_status: z.enum(['pending', 'sent', 'failed']).nullish(),
  delete_error: z.object({ reason: z.string(), at: z.number() }).nullish(),
  /** ticket this message belongs to (spec §3; set by create ticket / attach, cleared by detach) */
  message_ticket_id: z.string().nullish(),
  /** id the sending browser gave its optimistic bubble (POST …/messages `client_id`); lets the socket copy replace it */
  client_id: z.string().nullish(),
  /** text, image, video, audio, ptt, document, sticker, location, contacts, button, interactive, reaction, unsupported, order, system */
  message_type: z.string(),
  media: z
    .object({
      media_id: z.string().nullish(),
      mimetype: z.string().nullish(),
      sha256: z.string().nullish(),
      filename: z.string().nullish(),
      caption: z.string().nullish(),
      voice: z.boolean().nullish(),
      animated: z.boolean().nullish(),
      /** download state of the file (shared/media/media.schemas.ts MediaStatus); absent = not tried yet */
      status: z.enum(['pending', 'retrying', 'stored', 'failed']).nullish(),
      /** why it is retrying or failed, in words a person understands */
      error: z.string().nullish(),
      /** bytes, once stored */
      size: z.number().nullish(),
      /** blob keys of the stored file and its 120x80 thumbnail (fetch URLs from the media endpoint) */
      path: z.string().nullish(),
      thumbnail: z.string().nullish(),
      attempts: z.number().nullish(),
    })
    .nullish(),
  /** type-specific content (location, contacts, interactive, button, unsupported, referral) */
  content: z.record(z.unknown()).nullish(),
  quoted_message: z
    .object({
      message_id: z.string(),
      unique_id: z.string().nullish(),
      body: z.string().nullish(),
      author: z.string().nullish(),
      from_me: z.boolean().nullish(),
      /** reply privately: the group the quoted message is from (absent = this chat) */
      chat_id: z.string().nullish(),
      chat_name: z.string().nullish(),
    })
    .nullish(),
  forwarded: z.string().nullish(),
  /** { [sender_id]: { reaction, timestamp } }; ours (keyed by our number) also carry `by` (member email) and `ack` (0 pending, 1 sent) */
  reactions: z.record(z.object({ reaction: z.string(), timestamp: z.number(), by: z.string().nullish(), ack: z.number().nullish() })).nullish(),
});
export type Message = z.infer<typeof Message>;

/** Longest text body Meta accepts (send-messages: 4096 characters). */
export const MAX_TEXT_BODY = 4096;

/** Longest caption Meta accepts on images, video and documents (send-messages: 1024 characters). */
export const MAX_CAPTION = 1024;

/** Text of a message or private note: not blank, at most MAX_TEXT_BODY characters (field reasons as the API answers them). */
export const MessageBody = z
  .string({ required_error: 'is required', invalid_type_error: 'must be text' })
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => s.length <= MAX_TEXT_BODY, `must be at most ${MAX_TEXT_BODY} characters`);

/** The sending browser's id for its optimistic bubble (echoed on the stored message and its events). */
export const ClientId = z.string({ invalid_type_error: 'must be text' }).regex(/^[A-Za-z0-9-]{1,64}$/, 'must be 1 to 64 letters, digits or dashes');

/**
 * POST /api/orgs/{org_id}/chats/{chat_id}/messages: text `{ body }`, or a file uploaded through
 * POST …/uploads `{ media: { key, filename, mimetype }, caption? }`. `body` is required unless
 * `media` is given (and is not sent with it: the text of a media message is its caption).
 */
export const SendMessageInput = z
  .object({
    body: MessageBody.optional(),
    media: z
      .object({
        key: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).min(1, 'must not be empty').max(1024, 'is too long'),
        filename: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
        mimetype: z.string({ required_error: 'is required', invalid_type_error: 'must be text' }).trim().min(1, 'must not be empty').max(255, 'is too long'),
      })
      .optional(),
    caption: z.string({ invalid_type_error: 'must be text' }).max(MAX_CAPTION, `must be at most ${MAX_CAPTION} characters`).optional(),
    quoted_message_id: z.string().min(1, 'must not be empty').optional(),
    /** reply privately: the group chat the quoted message is from (its sender must be this chat's customer) */
    quoted_chat_id: z.string({ invalid_type_error: 'must be text' }).min(1, 'must not be empty').max(200, 'is too long').optional(),
    /** the sending browser's id for its optimistic bubble, echoed on the stored message (and its events) */
    client_id: ClientId.optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.media && v.body === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['body'], message: 'is required' });
    if (v.media && v.body !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['body'], message: 'must not be sent with media (send the text as caption)' });
    if (!v.media && v.caption !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['caption'], message: 'is only for media messages' });
    if (v.quoted_chat_id !== undefined && v.quoted_message_id === undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['quoted_chat_id'], message: 'needs quoted_message_id' });
  });
export type SendMessageInput = z.infer<typeof SendMessageInput>;

/**
 * Does `s` decode as ElectroDB's cursor (base64url JSON object of key attributes with `pk` and `sk`)?
 * Browser-safe (atob). The one rule of a key cursor: PageCursor here, and shared/db/paging.ts
 * checkKeyCursor before any Query starts at a client's cursor.
 */
export function looksLikeKeyCursor(s: string): boolean {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(s)) return false;
  try {
    const b64 = s.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const v = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)))) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
    const o = v as Record<string, unknown>;
    const entries = Object.entries(o);
    return entries.length <= 8 && typeof o.pk === 'string' && typeof o.sk === 'string' && entries.every(([, x]) => typeof x === 'string' || typeof x === 'number');
  } catch {
    return false;
  }
}

/**
 * An opaque page cursor of a list read straight from one index (ElectroDB's cursor): checked for
 * its shape before any read, so `?cursor=!!x` is a 400 on `query.cursor`, never a 500. A cursor of
 * the right shape but another list is refused by DynamoDB and mapped to the same 400
 * (withCursor, shared/db/paging.ts).
 */
export const PageCursor = z.string().min(1, 'must not be empty').max(2048, 'is not a cursor from this list').refine(looksLikeKeyCursor, 'is not a cursor from this list');

/** Page query of list endpoints: `limit` (1..1000, spec §7) and an opaque `cursor`. */
export const PageQuery = z.object({
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(50),
  cursor: PageCursor.optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;
