import type { ZodError } from 'zod';
import { ChangeValue, InboundMessage, InboundStatus, WebhookBody, type MetaError } from './webhook.schemas.ts';

/**
 * Turn a Cloud API webhook body into normalized inbound items (whatsapp-protocols.md C,
 * `InboundEvent`, reduced to what the inbox stores). Pure: no I/O. Never throws on bad input:
 * unusable parts come back as `rejected` items carrying a reason, so the caller can keep them.
 */

export interface NormalizedMessage {
  /** wamid */
  message_id: string;
  chat_id: string;
  chat_type: 'user' | 'group';
  /** the customer's wa_id (digits) */
  sender_phone: string;
  /** WhatsApp Web only: the person's LID (digits) when the chat came with one (contacts, issue 15) */
  sender_lid?: string;
  /** WhatsApp profile name when Meta sent one */
  author?: string;
  /** epoch ms (Meta sends unix seconds) */
  timestamp: number;
  /** spec §3 message_type; audio with voice=true becomes `ptt` */
  message_type: string;
  body?: string;
  media?: Record<string, unknown>;
  content?: Record<string, unknown>;
  quoted_message?: { message_id: string; from?: string };
  forwarded?: 'forwarded' | 'frequently_forwarded';
  /** for reactions: the target wamid and the emoji (null = removed) */
  reaction?: { target_message_id: string; emoji: string | null };
  /** sent by the business number itself from another device (WhatsApp Web connector: the phone's own messages); the Cloud API never sets it */
  from_me?: boolean;
}

export type NormalizedItem =
  | { kind: 'message'; phone_number_id: string; display_phone_number: string; message: NormalizedMessage }
  | {
      kind: 'status';
      phone_number_id: string;
      message_id: string;
      status: InboundStatus['status'];
      /** unix seconds (Meta's unit) */
      timestamp: number;
      recipient_id: string;
      errors?: MetaError[];
      /** the string our send carried (Meta echoes `biz_opaque_callback_data` in statuses); reconciles a send that crashed */
      biz_opaque_callback_data?: string;
    }
  | { kind: 'rejected'; phone_number_id?: string; reason: string; fragment: unknown }
  | { kind: 'ignored'; reason: string };

const issues = (e: ZodError) => e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

type MediaType = 'image' | 'video' | 'audio' | 'document' | 'sticker';

function normalizeMessage(m: InboundMessage, names: Map<string, string>): NormalizedMessage {
  const chat_type = m.group_id ? 'group' : 'user';
  const base: NormalizedMessage = {
    message_id: m.id,
    chat_id: m.group_id ? `${m.group_id}@g.us` : `${m.from}@c.us`,
    chat_type,
    sender_phone: m.from,
    author: names.get(m.from),
    timestamp: Number(m.timestamp) * 1000,
    message_type: m.type,
  };
  if (m.context?.id) base.quoted_message = { message_id: m.context.id, from: m.context.from };
  if (m.context?.frequently_forwarded) base.forwarded = 'frequently_forwarded';
  else if (m.context?.forwarded) base.forwarded = 'forwarded';
  const content: Record<string, unknown> = {};
  if (m.referral) content.referral = m.referral;
  if (m.context?.referred_product) content.referred_product = m.context.referred_product;

  switch (m.type) {
    case 'text':
      base.body = m.text?.body ?? '';
      break;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker': {
      const media = m[m.type as MediaType];
      if (media) {
        base.media = {
          media_id: media.id,
          mimetype: media.mime_type,
          sha256: media.sha256,
          filename: media.filename,
          caption: media.caption,
          voice: media.voice,
          animated: media.animated,
          url: media.url,
        };
        base.body = media.caption;
        if (m.type === 'audio' && media.voice) base.message_type = 'ptt';
      }
      break;
    }
    case 'location':
      content.location = m.location;
      base.body = [m.location?.name, m.location?.address].filter(Boolean).join(', ') || undefined;
      break;
    case 'contacts': {
      content.contacts = m.contacts ?? [];
      const first = (m.contacts?.[0]?.name as { formatted_name?: string } | undefined)?.formatted_name;
      base.body = first;
      break;
    }
    case 'button':
      content.button = m.button;
      base.body = m.button?.text;
      break;
    case 'interactive':
      content.interactive = m.interactive;
      base.body = m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title;
      break;
    case 'reaction':
      base.reaction = { target_message_id: m.reaction!.message_id, emoji: m.reaction?.emoji ? m.reaction.emoji : null };
      base.body = m.reaction?.emoji ?? undefined;
      content.reaction = m.reaction;
      break;
    case 'unsupported':
      content.unsupported = m.unsupported ?? {};
      break;
    default:
      // order, system, request_welcome and types Meta adds later: keep the object as sent.
      content[m.type] = (m as Record<string, unknown>)[m.type] ?? null;
  }
  if (m.errors?.length) content.errors = m.errors;
  if (Object.keys(content).length) base.content = content;
  return base;
}

/** Type-specific presence check: Meta always sends the object named by `type` for these types. */
function missingTypeObject(m: InboundMessage): string | undefined {
  const needs = ['text', 'image', 'video', 'audio', 'document', 'sticker', 'location', 'button', 'interactive', 'reaction'];
  if (needs.includes(m.type) && (m as Record<string, unknown>)[m.type] == null) return `messages[].${m.type}: is required for type ${m.type}`;
  return undefined;
}

/**
 * Normalize a parsed webhook body.
 * @param body the JSON value of the raw body (already parsed)
 * @returns one item per message / status / unusable part, in payload order
 */
export function normalizeWebhook(body: unknown): NormalizedItem[] {
  const parsed = WebhookBody.safeParse(body);
  if (!parsed.success) return [{ kind: 'rejected', reason: `not a WhatsApp webhook body: ${issues(parsed.error)}`, fragment: body }];
  if (parsed.data.object !== 'whatsapp_business_account') {
    return [{ kind: 'ignored', reason: `object ${parsed.data.object} is not handled` }];
  }
  const out: NormalizedItem[] = [];
  for (const entry of parsed.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') {
        out.push({ kind: 'ignored', reason: `webhook field ${change.field} is not handled` });
        continue;
      }
      const value = ChangeValue.safeParse(change.value);
      if (!value.success) {
        out.push({ kind: 'rejected', reason: `bad messages change: ${issues(value.error)}`, fragment: change.value });
        continue;
      }
      const { phone_number_id, display_phone_number } = value.data.metadata;
      const names = new Map<string, string>();
      for (const c of value.data.contacts ?? []) if (c.profile?.name) names.set(c.wa_id, c.profile.name);
      for (const raw of value.data.messages ?? []) {
        const m = InboundMessage.safeParse(raw);
        const missing = m.success ? missingTypeObject(m.data) : undefined;
        if (!m.success || missing) {
          out.push({ kind: 'rejected', phone_number_id, reason: `bad message: ${missing ?? issues(m.error!)}`, fragment: raw });
          continue;
        }
        out.push({ kind: 'message', phone_number_id, display_phone_number, message: normalizeMessage(m.data, names) });
      }
      for (const raw of value.data.statuses ?? []) {
        const s = InboundStatus.safeParse(raw);
        if (!s.success) {
          out.push({ kind: 'rejected', phone_number_id, reason: `bad status: ${issues(s.error)}`, fragment: raw });
          continue;
        }
        out.push({
          kind: 'status',
          phone_number_id,
          message_id: s.data.id,
          status: s.data.status,
          timestamp: Number(s.data.timestamp),
          recipient_id: s.data.recipient_id,
          errors: s.data.errors,
          ...(s.data.biz_opaque_callback_data ? { biz_opaque_callback_data: s.data.biz_opaque_callback_data } : {}),
        });
      }
      if (value.data.errors?.length) {
        out.push({ kind: 'rejected', phone_number_id, reason: 'Meta reported errors for this number', fragment: value.data.errors });
      }
    }
  }
  return out;
}
