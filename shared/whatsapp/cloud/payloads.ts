import { randomBytes } from 'node:crypto';

/**
 * Builders of Cloud API webhook bodies in Meta's documented shape (webhooks reference / messages;
 * see ../shared/fixtures/whatsapp-cloud). Used by the simulator, the benchmark and tests.
 */
export interface PhoneMeta {
  phone_number_id: string;
  display_phone_number: string;
}

/** A fresh wamid-looking id. */
export const newWamid = (): string => `wamid.${randomBytes(24).toString('base64')}`;

/** Wrap a `value` in the webhook envelope. */
export function envelope(phone: PhoneMeta, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [{ id: '102290129340398', changes: [{ value: { messaging_product: 'whatsapp', metadata: phone, ...value }, field: 'messages' }] }],
  };
}

/** One inbound message of any type: pass the type object as Meta names it (e.g. `{ text: { body } }`). */
export function inboundMessage(
  phone: PhoneMeta,
  opts: { from: string; name?: string; id?: string; timestampS?: number; type: string; fields: Record<string, unknown>; context?: Record<string, unknown> },
) {
  return envelope(phone, {
    contacts: [{ profile: { name: opts.name ?? 'Customer' }, wa_id: opts.from }],
    messages: [
      {
        from: opts.from,
        id: opts.id ?? newWamid(),
        timestamp: String(opts.timestampS ?? Math.floor(Date.now() / 1000)),
        type: opts.type,
        ...(opts.context ? { context: opts.context } : {}),
        ...opts.fields,
      },
    ],
  });
}

/** An inbound text message. */
export const inboundText = (phone: PhoneMeta, from: string, body: string, extra: { name?: string; id?: string; timestampS?: number } = {}) =>
  inboundMessage(phone, { from, name: extra.name, id: extra.id, timestampS: extra.timestampS, type: 'text', fields: { text: { body } } });

/** Fields of an inbound media object as Meta sends them (whatsapp-protocols.md A.5). */
export interface InboundMediaFields {
  id: string;
  mime_type: string;
  /** base64 SHA-256 of the file */
  sha256?: string;
  caption?: string;
  /** documents */
  filename?: string;
  /** audio: true for a voice note */
  voice?: boolean;
  /** stickers */
  animated?: boolean;
}

/** An inbound image, video, audio (voice with `voice: true`), document or sticker message. */
export const inboundMedia = (
  phone: PhoneMeta,
  from: string,
  type: 'image' | 'video' | 'audio' | 'document' | 'sticker',
  media: InboundMediaFields,
  extra: { name?: string; id?: string; timestampS?: number } = {},
) => inboundMessage(phone, { from, name: extra.name, id: extra.id, timestampS: extra.timestampS, type, fields: { [type]: media } });

/** An inbound image message. */
export const inboundImage = (phone: PhoneMeta, from: string, media: Omit<InboundMediaFields, 'mime_type'> & { mime_type?: string }, extra: { name?: string; id?: string; timestampS?: number } = {}) =>
  inboundMedia(phone, from, 'image', { mime_type: 'image/jpeg', ...media }, extra);

/** A status update for an outbound wamid. */
export function statusUpdate(
  phone: PhoneMeta,
  opts: { id: string; status: 'sent' | 'delivered' | 'read' | 'failed' | 'played'; recipient: string; timestampS?: number; errors?: unknown[]; /** what the send carried; Meta echoes it in every status */ bizOpaqueCallbackData?: string },
) {
  return envelope(phone, {
    statuses: [
      {
        id: opts.id,
        status: opts.status,
        timestamp: String(opts.timestampS ?? Math.floor(Date.now() / 1000)),
        recipient_id: opts.recipient,
        ...(opts.status === 'sent' ? { pricing: { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' } } : {}),
        ...(opts.errors ? { errors: opts.errors } : {}),
        ...(opts.bizOpaqueCallbackData ? { biz_opaque_callback_data: opts.bizOpaqueCallbackData } : {}),
      },
    ],
  });
}
