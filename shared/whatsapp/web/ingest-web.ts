import { storeInboundMessages, recordStatus } from '../../inbox/ingest.ts';
import { parkChange } from '../../inbox/parked.ts';
import { applyInboundEdit, applyInboundDelete } from '../../message/message-edit.ts';
import type { NormalizedMessage } from '../cloud/normalize.ts';
import { log } from '../../log.ts';
import type { Content, InboundEvent } from './types.ts';
import type { ProtocolChange } from './protocol.rules.ts';

/**
 * The WhatsApp Web connector's entry into the inbox's one storing pipeline: the §C events a
 * session produced are turned into what the Cloud API webhook consumer stores
 * (shared/inbox/ingest.ts: `storeInboundMessages` for messages and reactions, `recordStatus` for
 * acks), and edits/deletes go to the message-edit use cases (shared/message/message-edit.ts).
 * Idempotent like that pipeline: a message id is stored once, statuses apply monotonically.
 */
export interface WaWebPhone {
  org_id: string;
  phone_id: string;
  org_phone: string;
}

/** spec §3 message_type of a §C content (audio with voice = `ptt`, as the Cloud normalizer does). */
export function messageTypeOf(c: Content): string {
  switch (c.type) {
    case 'audio':
      return c.voice ? 'ptt' : 'audio';
    case 'poll':
      return 'poll_creation';
    default:
      return c.type;
  }
}

/** The text a content shows in the thread and the chat list (caption, place, first contact, poll question). */
export function bodyOf(c: Content): string | undefined {
  switch (c.type) {
    case 'text':
    case 'system':
      return c.text;
    case 'image':
    case 'video':
    case 'document':
    case 'sticker':
      return c.caption;
    case 'location':
      return [c.name, c.address].filter(Boolean).join(', ') || undefined;
    case 'contacts':
      return (c.contacts[0] as { displayName?: string } | undefined)?.displayName;
    case 'poll':
      return c.question;
    default:
      return undefined;
  }
}

/** The LID digits of a direct chat's person (from the chat's alternate ids), when it differs from the sender's id. */
function lidOf(e: Extract<InboundEvent, { kind: 'message' | 'reaction' }>): { sender_lid?: string } {
  if (e.fromMe || e.chat.kind !== 'direct') return {};
  const lid = e.chat.altIds?.find((x) => x.endsWith('@lid'))?.split('@')[0]?.split(':')[0];
  return lid && lid !== e.sender.id ? { sender_lid: lid } : {};
}

/** A §C message or reaction event as the pipeline's NormalizedMessage (the Cloud normalizer's shape). */
export function toNormalizedMessage(e: Extract<InboundEvent, { kind: 'message' | 'reaction' }>): NormalizedMessage {
  const base = {
    chat_id: e.chat.chatId,
    chat_type: e.chat.kind === 'group' ? ('group' as const) : ('user' as const),
    sender_phone: e.sender.id,
    ...(e.fromMe ? { from_me: true } : {}),
    ...lidOf(e),
  };
  if (e.kind === 'reaction') {
    return { ...base, message_id: e.eventId, timestamp: e.at.getTime(), message_type: 'reaction', body: e.emoji ?? undefined, reaction: { target_message_id: e.targetProviderMessageId, emoji: e.emoji }, content: { reaction: { message_id: e.targetProviderMessageId, emoji: e.emoji } } };
  }
  const c = e.content;
  const m: NormalizedMessage = {
    ...base,
    message_id: e.providerMessageId,
    author: e.sender.name,
    timestamp: e.sentAt.getTime(),
    message_type: messageTypeOf(c),
    body: bodyOf(c),
  };
  if (c.type === 'image' || c.type === 'video' || c.type === 'document' || c.type === 'sticker' || c.type === 'audio') {
    // no Graph media_id: the media-download consumer skips these; the session worker downloads the file (media-web.ts)
    m.media = { mimetype: c.media.mimeType, sha256: c.media.sha256, filename: c.type !== 'audio' ? (c.filename ?? c.media.filename) : undefined, caption: c.type !== 'audio' ? c.caption : undefined, voice: c.type === 'audio' ? c.voice : undefined, size: c.media.sizeBytes, source: 'wa_web' };
  } else if (c.type === 'location') m.content = { location: { latitude: c.lat, longitude: c.lng, name: c.name, address: c.address, url: c.url } };
  else if (c.type === 'contacts') m.content = { contacts: c.contacts };
  else if (c.type === 'poll') m.content = { poll: { question: c.question, options: c.options, multi: c.multi } };
  else if (c.type === 'unsupported') m.content = { unsupported: { type: c.providerType } };
  if (e.replyTo) m.quoted_message = { message_id: e.replyTo.providerMessageId, ...(e.replyTo.participant ? { from: e.replyTo.participant } : {}) };
  if (e.forwarded) m.forwarded = e.forwarded;
  return m;
}

export interface WaWebIngestSummary {
  stored: number;
  duplicates: number;
  statuses: number;
  edits: number;
  deletes: number;
  /** edits and deletes of a message not stored (yet): it may be in a batch still on its way (the queue does not keep order) */
  unknown: number;
  /** edits and deletes refused: from someone who may not make them, or naming a message of another chat (protocol.rules.ts) */
  refused: number;
}

/**
 * Who made an edit or delete, as protocol.rules.ts compares it: the stanza's chat and sender, our
 * number's digits when it was made from our phone. An event without a sender (a record queued before
 * senders were carried) names nobody, so it is refused.
 */
export function changeOf(phone: WaWebPhone, e: Extract<InboundEvent, { kind: 'edit' | 'delete' }>): ProtocolChange {
  const fromMe = e.fromMe === true;
  return { chat_id: e.chat.chatId, from_me: fromMe, sender: fromMe ? phone.org_phone : (e.sender?.id ?? '') };
}

/**
 * Store what one batch of a session's events carries, in order: messages and reactions (one
 * `storeInboundMessages` call for the batch), then statuses, edits and deletes (which refer to
 * messages that may be in the same batch). Edits, deletes and reactions apply only as
 * protocol.rules.ts allows: from the author (a delete also from a group admin) and to a message of
 * the chat they arrived in; a reaction always as its sender's. Throws on infrastructure errors (the wa-web-inbound
 * queue redelivers the batch; every step is idempotent).
 */
export async function ingestWaWebEvents(phone: WaWebPhone, events: InboundEvent[]): Promise<WaWebIngestSummary> {
  const summary: WaWebIngestSummary = { stored: 0, duplicates: 0, statuses: 0, edits: 0, deletes: 0, unknown: 0, refused: 0 };
  const msgs = events.filter((e): e is Extract<InboundEvent, { kind: 'message' | 'reaction' }> => e.kind === 'message' || e.kind === 'reaction').map(toNormalizedMessage);
  if (msgs.length) {
    for (const r of (await storeInboundMessages(phone, msgs)).values()) {
      if (r === 'stored') summary.stored++;
      else summary.duplicates++;
    }
  }
  for (const e of events) {
    if (e.kind === 'status') {
      if (e.status === 'pending') continue;
      const errors = e.error ? [{ code: e.error.code, title: e.error.title, message: e.error.details }] : undefined;
      // StatusRecord.timestamp is in unix seconds (Meta's unit, kept for both connectors)
      await recordStatus(phone.org_id, e.providerMessageId, e.status, { timestamp: Math.floor(e.at.getTime() / 1000), ...(errors ? { errors } : {}) });
      summary.statuses++;
    } else if (e.kind === 'edit') {
      const body = bodyOf(e.newContent) ?? '';
      const edit = { org_id: phone.org_id, phone_id: phone.phone_id, chat_id: e.chat.chatId, message_id: e.providerMessageId, body, at_ms: e.at.getTime(), from: changeOf(phone, e) };
      const outcome = await applyInboundEdit(edit);
      // an edit before its message waits for it (issue 23 item 2)
      if (outcome === 'unknown') await parkChange(phone.org_id, e.providerMessageId, { kind: 'edit', edit: { chat_id: edit.chat_id, body, at_ms: edit.at_ms, phone_id: edit.phone_id, from: edit.from } });
      log(outcome === 'refused' ? 'warn' : 'debug', 'wa_web.inbound_edit', { phone_id: phone.phone_id, message_id: e.providerMessageId, outcome });
      summary.edits++;
      if (outcome === 'unknown') summary.unknown++;
      if (outcome === 'refused') summary.refused++;
    } else if (e.kind === 'delete') {
      const del = { org_id: phone.org_id, phone_id: phone.phone_id, chat_id: e.chat.chatId, message_id: e.providerMessageId, at_ms: e.at.getTime(), from: changeOf(phone, e) };
      const outcome = await applyInboundDelete(del);
      if (outcome === 'unknown') await parkChange(phone.org_id, e.providerMessageId, { kind: 'delete', delete: { chat_id: del.chat_id, at_ms: del.at_ms, phone_id: del.phone_id, from: del.from } });
      log(outcome === 'refused' ? 'warn' : 'debug', 'wa_web.inbound_delete', { phone_id: phone.phone_id, message_id: e.providerMessageId, outcome });
      summary.deletes++;
      if (outcome === 'unknown') summary.unknown++;
      if (outcome === 'refused') summary.refused++;
    }
  }
  return summary;
}
