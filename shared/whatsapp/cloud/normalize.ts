import type { ZodError } from 'zod';
import type { CustomerIdentity } from '../../contact/identity.rules.ts';
import { opaqueChatIdFor } from '../../contact/opaque-id.ts';
import { ChangeValue, InboundMessage, InboundStatus, WebhookBody, type MetaError } from './webhook.schemas.ts';

/**
 * Turn a Cloud API webhook body into normalized inbound items (whatsapp-protocols.md C,
 * `InboundEvent`, reduced to what the inbox stores). Pure: no I/O. Never throws on bad input:
 * unusable parts come back as `rejected` items carrying a reason, so the caller can keep them.
 */

export interface NormalizedMessage {
  /** wamid */
  message_id: string;
  /**
   * The chat's id as the webhook names it: `<wa_id>@c.us`, `<group_id>@g.us`, or for a customer known
   * only by BSUID the opaque `cht_…` of identity.rules.ts. Ingest resolves a 1:1 customer through
   * the identifier lookup rows (issue 41 §2) and may move the message to the chat that person already has.
   */
  chat_id: string;
  chat_type: 'user' | 'group';
  /** the customer's wa_id (digits); empty when Meta withheld the number (a username user, 2026) */
  sender_phone: string;
  /** the customer's contact id, set by ingest when it resolved the sender (issue 41; shared/contact/identity.ts) */
  contact_id?: string;
  /** every identifier the webhook gave of the sender (issue 41): number, BSUID, parent BSUID, username */
  sender_identity?: CustomerIdentity;
  /**
   * WhatsApp announced a new identifier for this customer (system messages `user_changed_number`,
   * `user_changed_user_id`), or the customer shared their number (a `contacts` reply with
   * `origin: "contact_request"`): the identity moves forward, the chat stays.
   */
  identity_change?: { kind: 'phone' | 'bsuid'; from?: string; to: string };
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
      /** the customer's number; empty when Meta withheld it */
      recipient_id: string;
      /** the customer's BSUID (2026) */
      recipient_user_id?: string;
      errors?: MetaError[];
      /** the string our send carried (Meta echoes `biz_opaque_callback_data` in statuses); reconciles a send that crashed */
      biz_opaque_callback_data?: string;
    }
  | { kind: 'rejected'; phone_number_id?: string; reason: string; fragment: unknown }
  | { kind: 'ignored'; reason: string };

const issues = (e: ZodError) => e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');

type MediaType = 'image' | 'video' | 'audio' | 'document' | 'sticker';

type SenderContact = { wa_id?: string; user_id?: string; parent_user_id?: string; profile?: { name?: string; username?: string } };

const digitsOf = (v: unknown): string | undefined => (typeof v === 'string' && v.replace(/\D/g, '') ? v.replace(/\D/g, '') : undefined);

/** The number a `contacts` reply to a REQUEST_CONTACT_INFO button shares (whatsapp-protocols.md §E.1), if it is one. */
function sharedNumberOf(m: InboundMessage): string | undefined {
  if (m.type !== 'contacts') return undefined;
  const card = m.contacts?.[0] as { origin?: unknown; phones?: Array<{ wa_id?: unknown; phone?: unknown }> } | undefined;
  const origin = (m as { origin?: unknown }).origin ?? card?.origin;
  if (origin !== 'contact_request') return undefined;
  const p = card?.phones?.[0];
  return digitsOf(p?.wa_id) ?? digitsOf(p?.phone);
}

/** What a system message announces about the customer's identifiers (Meta: messages webhook, `system`). */
function identityChangeOf(m: InboundMessage, id: CustomerIdentity): NormalizedMessage['identity_change'] {
  const sys = m.system as { type?: unknown; new_wa_id?: unknown; wa_id?: unknown; new_user_id?: unknown; user_id?: unknown; previous_user_id?: unknown } | undefined;
  if (m.type === 'system' && sys?.type === 'user_changed_number') {
    const to = digitsOf(sys.new_wa_id) ?? digitsOf(sys.wa_id);
    return to && to !== id.wa_id ? { kind: 'phone', ...(id.wa_id ? { from: id.wa_id } : {}), to } : undefined;
  }
  if (m.type === 'system' && sys?.type === 'user_changed_user_id') {
    const to = typeof sys.new_user_id === 'string' ? sys.new_user_id : typeof sys.user_id === 'string' && sys.user_id !== id.user_id ? sys.user_id : undefined;
    const from = typeof sys.previous_user_id === 'string' ? sys.previous_user_id : id.user_id;
    return to && to !== from ? { kind: 'bsuid', ...(from ? { from } : {}), to } : undefined;
  }
  const shared = sharedNumberOf(m);
  return shared && shared !== id.wa_id ? { kind: 'phone', ...(id.wa_id ? { from: id.wa_id } : {}), to: shared } : undefined;
}

function normalizeMessage(m: InboundMessage, senders: { byPhone: Map<string, SenderContact>; byUser: Map<string, SenderContact>; only?: SenderContact }): NormalizedMessage {
  const chat_type = m.group_id ? 'group' : 'user';
  // the sender's entry of `contacts`: by number, else by BSUID, else the only one
  const c = (m.from ? senders.byPhone.get(m.from) : undefined) ?? (m.from_user_id ? senders.byUser.get(m.from_user_id) : undefined) ?? senders.only;
  const identity: CustomerIdentity = {};
  const waId = m.from ?? c?.wa_id;
  if (waId) identity.wa_id = waId;
  const userId = m.from_user_id ?? c?.user_id;
  if (userId) identity.user_id = userId;
  const parent = m.from_parent_user_id ?? c?.parent_user_id;
  if (parent) identity.parent_user_id = parent;
  if (c?.profile?.username) identity.username = c.profile.username;
  const base: NormalizedMessage = {
    message_id: m.id,
    chat_id: m.group_id ? `${m.group_id}@g.us` : waId ? `${waId}@c.us` : opaqueChatIdFor(userId!),
    chat_type,
    sender_phone: waId ?? '',
    sender_identity: identity,
    author: c?.profile?.name ?? (chat_type === 'user' ? c?.profile?.username : undefined),
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
  const change = chat_type === 'user' ? identityChangeOf(m, identity) : undefined;
  if (change) base.identity_change = change;
  // the thread's system line: our words, not Meta's body (it spells out both numbers, which a masked member may not see)
  if (m.type === 'system') base.body = change?.kind === 'phone' ? 'The customer changed their phone number.' : change?.kind === 'bsuid' ? 'The customer’s WhatsApp user id changed.' : undefined;
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
      const byPhone = new Map<string, SenderContact>();
      const byUser = new Map<string, SenderContact>();
      for (const c of value.data.contacts ?? []) {
        if (c.wa_id) byPhone.set(c.wa_id, c);
        if (c.user_id) byUser.set(c.user_id, c);
      }
      const senders = { byPhone, byUser, only: value.data.contacts?.length === 1 ? value.data.contacts[0] : undefined };
      for (const raw of value.data.messages ?? []) {
        const m = InboundMessage.safeParse(raw);
        const missing = m.success ? missingTypeObject(m.data) : undefined;
        if (!m.success || missing) {
          out.push({ kind: 'rejected', phone_number_id, reason: `bad message: ${missing ?? issues(m.error!)}`, fragment: raw });
          continue;
        }
        out.push({ kind: 'message', phone_number_id, display_phone_number, message: normalizeMessage(m.data, senders) });
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
          recipient_id: s.data.recipient_id ?? '',
          ...(s.data.recipient_user_id ? { recipient_user_id: s.data.recipient_user_id } : {}),
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
