import { z } from 'zod';

/**
 * Zod shapes of the Cloud API `messages` webhook (Meta: webhooks reference / messages, and the
 * per-type pages; summarised in whatsapp-protocols.md A.5). Objects are passthrough: Meta adds
 * fields over time and we keep what we do not model in `content`.
 */
const MediaObject = z
  .object({
    id: z.string(),
    mime_type: z.string().optional(),
    sha256: z.string().optional(),
    caption: z.string().optional(),
    filename: z.string().optional(),
    voice: z.boolean().optional(),
    animated: z.boolean().optional(),
    url: z.string().optional(),
  })
  .passthrough();

const MetaError = z
  .object({
    code: z.number(),
    title: z.string().optional(),
    message: z.string().optional(),
    error_data: z.object({ details: z.string().optional() }).passthrough().optional(),
    href: z.string().optional(),
  })
  .passthrough();
export type MetaError = z.infer<typeof MetaError>;

/** A business-scoped user id (BSUID): ISO 3166 alpha-2 country code, a dot, up to 128 alphanumerics; parent ids add `ENT.` (Meta, "Business-scoped user IDs"). Kept loose: Meta may widen it. */
const UserId = z.string().min(3).max(200);

export const InboundMessage = z
  .object({
    /** the customer's number; absent for a username user whose number Meta withholds (since 2026-04) */
    from: z.string().min(1).optional(),
    /** the customer's BSUID (since 2026-04) */
    from_user_id: UserId.optional(),
    from_parent_user_id: UserId.optional(),
    id: z.string().min(1),
    /** unix seconds, as a string */
    timestamp: z.string().regex(/^\d+$/),
    type: z.string().min(1),
    group_id: z.string().optional(),
    context: z
      .object({
        from: z.string().optional(),
        id: z.string().optional(),
        forwarded: z.boolean().optional(),
        frequently_forwarded: z.boolean().optional(),
        referred_product: z.unknown().optional(),
      })
      .passthrough()
      .optional(),
    text: z.object({ body: z.string() }).passthrough().optional(),
    image: MediaObject.optional(),
    video: MediaObject.optional(),
    audio: MediaObject.optional(),
    document: MediaObject.optional(),
    sticker: MediaObject.optional(),
    location: z
      .object({ latitude: z.number(), longitude: z.number(), name: z.string().optional(), address: z.string().optional(), url: z.string().optional() })
      .passthrough()
      .optional(),
    contacts: z.array(z.record(z.unknown())).optional(),
    button: z.object({ payload: z.string().optional(), text: z.string() }).passthrough().optional(),
    interactive: z
      .object({
        type: z.string(),
        button_reply: z.object({ id: z.string(), title: z.string() }).passthrough().optional(),
        list_reply: z.object({ id: z.string(), title: z.string(), description: z.string().optional() }).passthrough().optional(),
      })
      .passthrough()
      .optional(),
    reaction: z.object({ message_id: z.string(), emoji: z.string().optional() }).passthrough().optional(),
    unsupported: z.object({ type: z.string().optional() }).passthrough().optional(),
    order: z.record(z.unknown()).optional(),
    system: z.record(z.unknown()).optional(),
    referral: z.record(z.unknown()).optional(),
    errors: z.array(MetaError).optional(),
  })
  .passthrough()
  .refine((m) => !!m.from || !!m.from_user_id, { message: 'needs from or from_user_id', path: ['from'] });
export type InboundMessage = z.infer<typeof InboundMessage>;

export const InboundStatus = z
  .object({
    id: z.string().min(1),
    status: z.enum(['sent', 'delivered', 'read', 'failed', 'played', 'deleted', 'warning']),
    /** unix seconds, as a string */
    timestamp: z.string().regex(/^\d+$/),
    /** the customer's number; absent when Meta withholds it (2026: `recipient_user_id` instead) */
    recipient_id: z.string().optional(),
    recipient_user_id: UserId.optional(),
    recipient_parent_user_id: UserId.optional(),
    recipient_type: z.string().optional(),
    recipient_participant_id: z.string().optional(),
    biz_opaque_callback_data: z.string().optional(),
    errors: z.array(MetaError).optional(),
  })
  .passthrough();
export type InboundStatus = z.infer<typeof InboundStatus>;

export const ChangeValue = z
  .object({
    messaging_product: z.string().optional(),
    metadata: z.object({ display_phone_number: z.string(), phone_number_id: z.string() }),
    /** the senders: `wa_id` absent for a username user whose number is withheld; `user_id` (BSUID), `parent_user_id` and `profile.username` since 2026-04 */
    contacts: z
      .array(
        z
          .object({
            wa_id: z.string().optional(),
            user_id: UserId.optional(),
            parent_user_id: UserId.optional(),
            profile: z.object({ name: z.string().optional(), username: z.string().optional() }).passthrough().optional(),
          })
          .passthrough(),
      )
      .optional(),
    messages: z.array(z.unknown()).optional(),
    statuses: z.array(z.unknown()).optional(),
    errors: z.array(MetaError).optional(),
  })
  .passthrough();
export type ChangeValue = z.infer<typeof ChangeValue>;

export const WebhookBody = z.object({
  object: z.string(),
  entry: z.array(
    z
      .object({
        id: z.string().optional(),
        changes: z.array(z.object({ field: z.string(), value: z.unknown() }).passthrough()),
      })
      .passthrough(),
  ),
});
export type WebhookBody = z.infer<typeof WebhookBody>;
