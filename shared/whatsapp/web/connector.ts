import { CAPABILITIES, type Capabilities } from '../capabilities.ts';
import { ConnectorError, type ChannelRef, type ChatRef, type Content, type InboundEvent, type MediaRef, type SendResult, type WaKey } from './types.ts';

/**
 * WhatsApp Web connector over Baileys (whatsapp-protocols.md §B.3–B.7, §C). Pure where it can be:
 * `parseInbound` turns Baileys event payloads into §C `InboundEvent`s with no I/O; the outbound
 * operations speak Baileys' message shapes (§B.6) to a `Transport` (a Baileys socket in
 * production, the local stand-in or a recording fake in tests). Baileys itself is never imported
 * here: the enum values used are copied from its proto with their names.
 */

/** `proto.WebMessageInfo.Status` (§B.5): ERROR 0, PENDING 1, SERVER_ACK 2, DELIVERY_ACK 3, READ 4, PLAYED 5. */
const WA_STATUS = ['failed', 'pending', 'sent', 'delivered', 'read', 'played'] as const;
/** `WAMessageStubType.REVOKE` */
const STUB_REVOKE = 1;
/** `WAMessageStubType.GROUP_CREATE`: WhatsApp's "group created" notification (stub parameters: [subject]) */
const STUB_GROUP_CREATE = 20;
/** `proto.Message.ProtocolMessage.Type` */
const PROTOCOL_REVOKE = 0;
const PROTOCOL_MESSAGE_EDIT = 14;
/** WhatsApp labels a message "frequently forwarded" from 5 hops on (its forwardingScore). */
const FREQUENT_FORWARD_SCORE = 5;

/** What the outbound side needs of a Baileys socket (§C.1 item 1). */
export interface Transport {
  /** Baileys `sock.sendMessage(jid, content, options)`; resolves to the sent WAMessage (its `key` matters) */
  sendMessage(jid: string, content: Record<string, unknown>, options?: { quoted?: unknown }): Promise<{ key: WaKey; messageTimestamp?: unknown } | undefined>;
  /** Baileys `sock.readMessages(keys)` */
  readMessages(keys: WaKey[]): Promise<void>;
  /** Baileys `sock.groupMetadata(jid)`: subject, participants with `admin: 'admin' | 'superadmin' | null` (v7: a LID `id` with `phoneNumber`), isCommunity */
  groupMetadata(jid: string): Promise<{ subject?: string | null; isCommunity?: boolean | null; participants: Array<{ id: string; admin?: string | null; phoneNumber?: string | null }> }>;
  /** Baileys `sock.groupCreate(subject, participants)`: the new group's metadata (its `id` is the group jid) */
  groupCreate?(subject: string, participants: string[]): Promise<{ id: string; subject?: string | null }>;
  /** Baileys `sock.groupUpdateDescription(jid, description)` */
  groupUpdateDescription?(jid: string, description?: string): Promise<void>;
  /** Baileys `sock.groupSettingUpdate(jid, setting)`: 'announcement' = only admins send; 'locked' = only admins edit the group's info */
  groupSettingUpdate?(jid: string, setting: 'announcement' | 'not_announcement' | 'locked' | 'unlocked'): Promise<void>;
  /** Baileys `sock.updateProfilePicture(jid, bytes)` (a group's picture when `jid` is the group) */
  updateProfilePicture?(jid: string, bytes: Uint8Array): Promise<void>;
  /** the number's own jid once linked (Baileys `sock.user.id`) */
  me(): string | undefined;
}

/** A raw Baileys event as the session hands it over: the event name and its payload. */
export type BaileysEvent =
  | { event: 'messages.upsert'; data: { messages: unknown[]; type?: string } }
  | { event: 'messages.update'; data: unknown[] }
  | { event: 'messages.reaction'; data: unknown[] }
  | { event: 'message-receipt.update'; data: unknown[] };

/** The Baileys events the connector normalizes (the session subscribes to these). */
export const BAILEYS_INBOUND_EVENTS = ['messages.upsert', 'messages.update', 'messages.reaction', 'message-receipt.update'] as const;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** A protobuf long as Baileys hands it over (number, string, or `Long` {low, high}) as a number. */
export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() && Number.isFinite(Number(v))) return Number(v);
  const o = obj(v);
  if (o && typeof o.low === 'number' && typeof o.high === 'number') return o.high * 2 ** 32 + (o.low >>> 0);
  return undefined;
}

/** Bytes as Baileys hands them over (Buffer, Uint8Array, BufferJSON `{type:'Buffer',data}`, base64 string) as base64. */
function b64(v: unknown): string | undefined {
  if (typeof v === 'string') return v || undefined;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  const o = obj(v);
  if (o?.type === 'Buffer' && Array.isArray(o.data)) return Buffer.from(o.data as number[]).toString('base64');
  if (typeof o?.data === 'string') return o.data;
  return undefined;
}

/** The user part of a jid: `15551234567:12@s.whatsapp.net` -> `15551234567`. */
export const jidUser = (jid: string): string => jid.split('@')[0]!.split(':')[0]!;

/**
 * The inbox's chat id of a Baileys jid: people as `<digits>@c.us` (the Cloud normalizer's form, so
 * a customer is one chat whichever connector carries it), groups as they are. A LID jid is replaced
 * by its phone-number alternate when Baileys gives one (§B.4).
 */
export function chatRefOf(remoteJid: string, alt?: string): ChatRef {
  const pn = remoteJid.endsWith('@lid') && alt ? alt : remoteJid;
  const altIds = [remoteJid, alt].filter((x): x is string => !!x && x !== pn);
  if (pn.endsWith('@g.us')) return { chatId: pn, kind: 'group', ...(altIds.length ? { altIds } : {}) };
  return { chatId: `${jidUser(pn)}@c.us`, kind: 'direct', altIds: [pn, ...altIds] };
}

/** The Baileys jid of an inbox chat id (`…@c.us` -> `…@s.whatsapp.net`). */
export const jidOfChat = (chatId: string): string => (chatId.endsWith('@c.us') ? `${chatId.slice(0, -5)}@s.whatsapp.net` : chatId);

/** Unwrap the containers WhatsApp puts content in (ephemeral, view once, document with caption, edited). */
function unwrap(message: Obj | undefined): Obj | undefined {
  let m = message;
  for (let i = 0; i < 5 && m; i++) {
    const inner =
      obj(obj(m.ephemeralMessage)?.message) ??
      obj(obj(m.viewOnceMessage)?.message) ??
      obj(obj(m.viewOnceMessageV2)?.message) ??
      obj(obj(m.viewOnceMessageV2Extension)?.message) ??
      obj(obj(m.documentWithCaptionMessage)?.message) ??
      obj(obj(m.editedMessage)?.message);
    if (!inner) break;
    m = inner;
  }
  return m;
}

/** `getContentType()`: the first content key that is not metadata. */
function contentType(m: Obj): string | undefined {
  return Object.keys(m).find((k) => k === 'conversation' || (/Message(V\d+)?$/.test(k) && k !== 'senderKeyDistributionMessage' && k !== 'messageContextInfo'));
}

function mediaOf(m: Obj): MediaRef {
  return {
    url: str(m.url),
    mimeType: str(m.mimetype),
    sha256: b64(m.fileSha256),
    sizeBytes: toNumber(m.fileLength),
    filename: str(m.fileName),
    directPath: str(m.directPath),
    mediaKey: b64(m.mediaKey),
  };
}

/**
 * The §C content of a Baileys `message` (after unwrapping) and its `contextInfo`.
 * Unknown kinds become `unsupported` with Baileys' key as `providerType`.
 */
export function contentOf(message: unknown): { content: Content; contextInfo?: Obj } {
  const m = unwrap(obj(message));
  const type = m && contentType(m);
  if (!m || !type) return { content: { type: 'unsupported', providerType: 'empty' } };
  const body = obj(m[type]) ?? {};
  const contextInfo = obj(body.contextInfo);
  const caption = str(body.caption);
  switch (type) {
    case 'conversation':
      return { content: { type: 'text', text: String(m.conversation ?? '') } };
    case 'extendedTextMessage':
      return { content: { type: 'text', text: String(body.text ?? '') }, contextInfo };
    case 'imageMessage':
    case 'videoMessage':
    case 'stickerMessage':
    case 'documentMessage': {
      const t = type.replace('Message', '') as 'image' | 'video' | 'sticker' | 'document';
      return { content: { type: t, media: mediaOf(body), ...(caption ? { caption } : {}), ...(str(body.fileName) ? { filename: str(body.fileName) } : {}) }, contextInfo };
    }
    case 'audioMessage':
      return { content: { type: 'audio', media: mediaOf(body), voice: body.ptt === true }, contextInfo };
    case 'locationMessage':
    case 'liveLocationMessage':
      return {
        content: { type: 'location', lat: Number(body.degreesLatitude ?? 0), lng: Number(body.degreesLongitude ?? 0), name: str(body.name), address: str(body.address), url: str(body.url) },
        contextInfo,
      };
    case 'contactMessage':
      return { content: { type: 'contacts', contacts: [{ displayName: str(body.displayName), vcard: str(body.vcard) }] }, contextInfo };
    case 'contactsArrayMessage':
      return { content: { type: 'contacts', contacts: (Array.isArray(body.contacts) ? body.contacts : []).map((c) => ({ displayName: str(obj(c)?.displayName), vcard: str(obj(c)?.vcard) })) }, contextInfo };
    case 'pollCreationMessage':
    case 'pollCreationMessageV2':
    case 'pollCreationMessageV3':
      return {
        content: { type: 'poll', question: String(body.name ?? ''), options: (Array.isArray(body.options) ? body.options : []).map((o) => String(obj(o)?.optionName ?? '')), multi: toNumber(body.selectableOptionsCount) !== 1 },
        contextInfo,
      };
    default:
      return { content: { type: 'unsupported', providerType: type }, contextInfo };
  }
}

const channelOf = (ctx: ParseContext): ChannelRef => ctx.channel;

export interface ParseContext {
  channel: ChannelRef;
  receivedAt: Date;
  /** the number's own digits (sender of fromMe messages) */
  ownId?: string;
}

/** epoch s (Baileys' messageTimestamp) -> Date; falls back to when we received it. */
const dateOfSeconds = (v: unknown, fallback: Date): Date => {
  const n = toNumber(v);
  return n ? new Date(n * 1000) : fallback;
};

function keyOf(v: unknown): { remoteJid: string; id: string; fromMe: boolean; participant?: string; remoteJidAlt?: string; participantAlt?: string } | undefined {
  const k = obj(v);
  const remoteJid = str(k?.remoteJid);
  const id = str(k?.id);
  if (!k || !remoteJid || !id) return undefined;
  return { remoteJid, id, fromMe: k.fromMe === true, participant: str(k.participant), remoteJidAlt: str(k.remoteJidAlt), participantAlt: str(k.participantAlt) };
}

/** Sender digits of a message key: the group participant, else the chat's person; ours when fromMe. */
function senderOf(k: NonNullable<ReturnType<typeof keyOf>>, ctx: ParseContext): string {
  if (k.fromMe) return ctx.ownId ?? 'me';
  const p = k.participant?.endsWith('@lid') && k.participantAlt ? k.participantAlt : k.participant;
  if (p) return jidUser(p);
  return jidUser(k.remoteJid.endsWith('@lid') && k.remoteJidAlt ? k.remoteJidAlt : k.remoteJid);
}

function parseUpsert(data: unknown, ctx: ParseContext): InboundEvent[] {
  const messages = obj(data)?.messages;
  if (!Array.isArray(messages)) return [];
  const out: InboundEvent[] = [];
  for (const raw of messages) {
    const w = obj(raw);
    const k = keyOf(w?.key);
    if (!w || !k || k.remoteJid === 'status@broadcast' || k.remoteJid.endsWith('@broadcast') || k.remoteJid.endsWith('@newsletter')) continue;
    const message = unwrap(obj(w.message));
    const chat = chatRefOf(k.remoteJid, k.remoteJidAlt);
    const at = dateOfSeconds(w.messageTimestamp, ctx.receivedAt);
    // the "group created" notification: a system message, so a group made from this number (a
    // group template's "Create group", or the phone) appears in the inbox at once
    if (!message && toNumber(w.messageStubType) === STUB_GROUP_CREATE && chat.kind === 'group') {
      const params = Array.isArray(w.messageStubParameters) ? w.messageStubParameters : [];
      const subject = str(params[0]);
      out.push({ kind: 'message', eventId: `message:${k.remoteJid}:${k.id}:${k.fromMe ? 1 : 0}`, channel: channelOf(ctx), chat, sender: { id: senderOf(k, ctx) }, providerMessageId: k.id, fromMe: k.fromMe, sentAt: at, content: { type: 'system', text: subject ? `Group “${subject}” created` : 'Group created' }, raw });
      continue;
    }
    // other group notifications and stubs carry no message; protocol messages (edit, revoke) come
    // again from Baileys as messages.update, which is where they are taken (never twice)
    if (!message || message.protocolMessage || !contentType(message)) continue;
    if (message.reactionMessage) {
      const r = obj(message.reactionMessage)!;
      const target = keyOf(r.key);
      if (!target) continue;
      out.push({ kind: 'reaction', eventId: `reaction:${k.id}`, channel: channelOf(ctx), chat, sender: { id: senderOf(k, ctx) }, fromMe: k.fromMe, targetProviderMessageId: target.id, emoji: str(r.text) ?? null, at: new Date(toNumber(r.senderTimestampMs) ?? at.getTime()), raw });
      continue;
    }
    const { content, contextInfo } = contentOf(message);
    const stanzaId = str(contextInfo?.stanzaId);
    const score = toNumber(contextInfo?.forwardingScore) ?? 0;
    out.push({
      kind: 'message',
      eventId: `message:${k.remoteJid}:${k.id}:${k.fromMe ? 1 : 0}${k.participant ? `:${k.participant}` : ''}`,
      channel: channelOf(ctx),
      chat,
      sender: { id: senderOf(k, ctx), ...(str(w.pushName) && !k.fromMe ? { name: str(w.pushName) } : {}) },
      providerMessageId: k.id,
      fromMe: k.fromMe,
      sentAt: at,
      content,
      ...(stanzaId ? { replyTo: { providerMessageId: stanzaId, ...(str(contextInfo?.participant) ? { participant: jidUser(str(contextInfo?.participant)!) } : {}) } } : {}),
      ...(contextInfo?.isForwarded === true || score > 0 ? { forwarded: score >= FREQUENT_FORWARD_SCORE ? ('frequently_forwarded' as const) : ('forwarded' as const) } : {}),
      raw,
    });
  }
  return out;
}

function parseUpdates(data: unknown, ctx: ParseContext): InboundEvent[] {
  if (!Array.isArray(data)) return [];
  const out: InboundEvent[] = [];
  for (const raw of data) {
    const u = obj(raw);
    const k = keyOf(u?.key);
    const update = obj(u?.update);
    if (!k || !update) continue;
    const chat = chatRefOf(k.remoteJid, k.remoteJidAlt);
    const at = dateOfSeconds(update.messageTimestamp, ctx.receivedAt);
    const message = obj(update.message);
    const protocol = obj(message?.protocolMessage);
    const protocolType = toNumber(protocol?.type);
    // delete for everyone: Baileys' REVOKE stub with message null (§B.4), or the protocol message itself
    if (toNumber(update.messageStubType) === STUB_REVOKE || protocolType === PROTOCOL_REVOKE) {
      const target = protocolType === PROTOCOL_REVOKE ? (keyOf(protocol?.key)?.id ?? k.id) : k.id;
      // Baileys' key is the revoke stanza's own (its participant / remoteJid / fromMe: who revoked) with the target's id
      out.push({ kind: 'delete', eventId: `delete:${k.remoteJid}:${target}`, channel: channelOf(ctx), chat, sender: { id: senderOf(k, ctx) }, fromMe: k.fromMe, providerMessageId: target, at, raw });
      continue;
    }
    const edited = obj(obj(message?.editedMessage)?.message) ?? (protocolType === PROTOCOL_MESSAGE_EDIT ? obj(protocol?.editedMessage) : undefined);
    if (edited) {
      const target = protocolType === PROTOCOL_MESSAGE_EDIT ? (keyOf(protocol?.key)?.id ?? k.id) : k.id;
      const editAt = toNumber(protocol?.timestampMs) ? new Date(toNumber(protocol?.timestampMs)!) : at;
      const { content } = contentOf(edited);
      // as for revokes, the key says who edited (the edit stanza's sender), the id which message
      out.push({ kind: 'edit', eventId: `edit:${k.remoteJid}:${target}:${editAt.getTime()}`, channel: channelOf(ctx), chat, sender: { id: senderOf(k, ctx) }, fromMe: k.fromMe, providerMessageId: target, newContent: content, at: editAt, raw });
      continue;
    }
    const status = toNumber(update.status);
    if (status !== undefined && WA_STATUS[status]) {
      const s = WA_STATUS[status]!;
      out.push({
        kind: 'status',
        eventId: `status:${k.id}:${s}`,
        channel: channelOf(ctx),
        chat,
        providerMessageId: k.id,
        recipientId: jidUser(k.remoteJid),
        status: s,
        at,
        ...(s === 'failed' ? { error: { code: 0, title: 'ERROR', details: 'WhatsApp reported the message as failed (status ERROR).', retryable: false } } : {}),
        raw,
      });
    }
  }
  return out;
}

function parseReactions(data: unknown, ctx: ParseContext): InboundEvent[] {
  if (!Array.isArray(data)) return [];
  const out: InboundEvent[] = [];
  for (const raw of data) {
    const r = obj(raw);
    const target = keyOf(r?.key);
    const reaction = obj(r?.reaction);
    if (!target || !reaction) continue;
    // the reaction's own key (Baileys sets it from the stanza that carried it) says who reacted and
    // in which chat; the target key is the reactor's payload, so only its id is used. Without the
    // stanza's key nobody can say whose reaction it is: skipped.
    const by = keyOf(reaction.key);
    if (!by) continue;
    const at = new Date(toNumber(reaction.senderTimestampMs) ?? ctx.receivedAt.getTime());
    out.push({
      kind: 'reaction',
      eventId: `reaction:${target.id}:${senderOf(by, ctx)}:${at.getTime()}`,
      channel: channelOf(ctx),
      chat: chatRefOf(by.remoteJid, by.remoteJidAlt),
      sender: { id: senderOf(by, ctx) },
      fromMe: by.fromMe,
      targetProviderMessageId: target.id,
      // falsy text = removed (§B.4)
      emoji: str(reaction.text) ?? null,
      at,
      raw,
    });
  }
  return out;
}

function parseReceipts(data: unknown, ctx: ParseContext): InboundEvent[] {
  if (!Array.isArray(data)) return [];
  const out: InboundEvent[] = [];
  for (const raw of data) {
    const r = obj(raw);
    const k = keyOf(r?.key);
    const receipt = obj(r?.receipt);
    const user = str(receipt?.userJid);
    if (!k || !receipt || !user) continue;
    const played = toNumber(receipt.playedTimestamp);
    const read = toNumber(receipt.readTimestamp);
    const delivered = toNumber(receipt.receiptTimestamp);
    const [status, ts] = played ? (['played', played] as const) : read ? (['read', read] as const) : delivered ? (['delivered', delivered] as const) : [undefined, undefined];
    if (!status) continue;
    out.push({ kind: 'status', eventId: `receipt:${k.id}:${user}:${status}`, channel: channelOf(ctx), chat: chatRefOf(k.remoteJid, k.remoteJidAlt), providerMessageId: k.id, recipientId: jidUser(user), status, at: new Date(ts * 1000), raw });
  }
  return out;
}

/**
 * Normalize one Baileys event (§B.4, §B.5) into §C inbound events. Pure; never throws on bad
 * input: entries without a usable key are skipped.
 * - `messages.upsert`: text, extended text, image/video/audio (ptt = voice)/document/sticker,
 *   location, contacts, polls; reply-to from `contextInfo.stanzaId`; `fromMe` (sent from the
 *   phone); group sender from `key.participant`; reactions sent as messages.
 * - `messages.update`: `status` acks, `editedMessage` (edit), REVOKE stub / protocolMessage REVOKE (delete);
 *   the sender of an edit or delete is the one of the update's key (the stanza's), its target the key's id
 *   (or the protocol message's key id).
 * - `messages.reaction`: add, or remove when `reaction.text` is falsy; chat and sender from
 *   `reaction.key` (the stanza's), the target's id from `key`; without `reaction.key`, skipped.
 * - `message-receipt.update`: per-participant receipts in groups (delivered / read / played).
 */
export function parseInbound(raw: unknown, ctx: ParseContext): InboundEvent[] {
  const e = obj(raw);
  switch (e?.event) {
    case 'messages.upsert':
      return parseUpsert(e.data, ctx);
    case 'messages.update':
      return parseUpdates(e.data, ctx);
    case 'messages.reaction':
      return parseReactions(e.data, ctx);
    case 'message-receipt.update':
      return parseReceipts(e.data, ctx);
    default:
      return [];
  }
}

/** Where a stored message sits in WhatsApp: what the outbound operations need to rebuild its key. */
export interface MessageRefOut {
  providerMessageId: string;
  fromMe: boolean;
  /** sender digits of a group message that is not ours (key.participant) */
  participant?: string;
  /** when it was sent (windows, §B.9) */
  sentAt: Date;
}

/**
 * The outbound side of the connector (§C `WhatsAppConnector`): Baileys message shapes over a
 * `Transport`. Edit and delete windows (edit ≤ 15 min, delete ≤ 48 h; §B.9, spec §5) are
 * enforced here before the transport is touched (§C.1 item 5), because Baileys sends them at any age.
 */
export class WaWebConnector {
  readonly kind = 'wa_web_baileys' as const;

  constructor(
    private readonly transport: Transport,
    private readonly now: () => number = Date.now,
  ) {}

  capabilities(): Capabilities {
    return CAPABILITIES.wa_web;
  }

  private keyOf(chat: ChatRef, ref: Pick<MessageRefOut, 'providerMessageId' | 'fromMe' | 'participant'>): WaKey {
    return {
      remoteJid: jidOfChat(chat.chatId),
      fromMe: ref.fromMe,
      id: ref.providerMessageId,
      ...(chat.kind === 'group' && !ref.fromMe && ref.participant ? { participant: `${ref.participant}@s.whatsapp.net` } : {}),
    };
  }

  /**
   * Send text or a file (bytes in `media.bytes`).
   * @param opts.replyTo the quoted message (Baileys needs a WAMessage: key plus the quoted text)
   * @throws ConnectorError INVALID for content this connector cannot send; transport errors as TRANSIENT
   */
  async send(chat: ChatRef, content: Content | { type: 'file'; kind: 'image' | 'video' | 'audio' | 'document' | 'sticker'; bytes: Uint8Array; mimeType: string; caption?: string; filename?: string; voice?: boolean }, opts: { replyTo?: MessageRefOut & { text?: string } } = {}): Promise<SendResult> {
    let body: Record<string, unknown>;
    if (content.type === 'text') body = { text: content.text };
    else if (content.type === 'file') {
      const bytes = Buffer.from(content.bytes);
      body =
        content.kind === 'audio'
          ? { audio: bytes, mimetype: content.mimeType, ptt: !!content.voice }
          : content.kind === 'document'
            ? { document: bytes, mimetype: content.mimeType, fileName: content.filename ?? 'file', ...(content.caption ? { caption: content.caption } : {}) }
            : { [content.kind]: bytes, mimetype: content.mimeType, ...(content.caption && content.kind !== 'sticker' ? { caption: content.caption } : {}) };
    } else if (content.type === 'location') body = { location: { degreesLatitude: content.lat, degreesLongitude: content.lng, name: content.name, address: content.address } };
    else throw new ConnectorError('INVALID', false, `Chorus cannot send ${content.type} messages through WhatsApp Web yet.`);
    const quoted = opts.replyTo ? { key: this.keyOf(chat, opts.replyTo), message: { conversation: opts.replyTo.text ?? '' } } : undefined;
    const sent = await this.call(() => this.transport.sendMessage(jidOfChat(chat.chatId), body, quoted ? { quoted } : undefined));
    const id = sent?.key?.id;
    if (!id) throw new ConnectorError('TRANSIENT', true, 'WhatsApp did not return an id for the sent message.');
    return { providerMessageId: id, acceptedAt: new Date(this.now()), providerKey: sent.key };
  }

  /**
   * Edit our own sent text (or caption) to `text`: Baileys `{ text, edit: key }`.
   * @throws ConnectorError INVALID when not ours or older than 15 minutes (nothing is sent)
   */
  async edit(chat: ChatRef, ref: MessageRefOut, text: string): Promise<void> {
    if (!ref.fromMe) throw new ConnectorError('INVALID', false, 'Only messages sent from this number can be edited.');
    const windowMs = CAPABILITIES.wa_web.editWindowMs!;
    if (this.now() - ref.sentAt.getTime() > windowMs) throw new ConnectorError('INVALID', false, 'Messages can only be edited within 15 minutes of sending.');
    await this.call(() => this.transport.sendMessage(jidOfChat(chat.chatId), { text, edit: this.keyOf(chat, ref) }));
  }

  /**
   * Delete for everyone: Baileys `{ delete: key }`. Someone else's message only in a group where
   * this number is an admin (§B.7, spec §5).
   * @throws ConnectorError INVALID when older than 48 hours; UNSUPPORTED for another's message without admin rights
   */
  async delete(chat: ChatRef, ref: MessageRefOut): Promise<void> {
    const windowMs = CAPABILITIES.wa_web.deleteWindowMs!;
    if (this.now() - ref.sentAt.getTime() > windowMs) throw new ConnectorError('INVALID', false, 'Cannot delete messages older than 48 hrs');
    if (!ref.fromMe) {
      if (chat.kind !== 'group') throw new ConnectorError('UNSUPPORTED', false, "Only your own messages can be deleted in a one-to-one chat.");
      const me = this.transport.me();
      const meta = await this.call(() => this.transport.groupMetadata(jidOfChat(chat.chatId)));
      const mine = me ? meta.participants.find((p) => jidUser(p.id) === jidUser(me)) : undefined;
      if (!mine?.admin) throw new ConnectorError('UNSUPPORTED', false, "This number is not an admin of the group, so it cannot delete others' messages.");
    }
    await this.call(() => this.transport.sendMessage(jidOfChat(chat.chatId), { delete: this.keyOf(chat, ref) }));
  }

  /** React (`emoji` null removes ours): Baileys `{ react: { text, key } }` ('' removes). */
  async react(chat: ChatRef, ref: Pick<MessageRefOut, 'providerMessageId' | 'fromMe' | 'participant'>, emoji: string | null): Promise<SendResult> {
    const sent = await this.call(() => this.transport.sendMessage(jidOfChat(chat.chatId), { react: { text: emoji ?? '', key: this.keyOf(chat, ref) } }));
    return { providerMessageId: sent?.key?.id ?? '', acceptedAt: new Date(this.now()), providerKey: sent?.key };
  }

  /** Send read receipts for these received messages (Baileys `readMessages`; there is no "read the whole chat"). */
  async markRead(chat: ChatRef, refs: Array<Pick<MessageRefOut, 'providerMessageId' | 'participant'>>): Promise<void> {
    if (!refs.length) return;
    await this.call(() => this.transport.readMessages(refs.map((r) => this.keyOf(chat, { ...r, fromMe: false }))));
  }

  /** Transport failures become retryable TRANSIENT errors; ConnectorErrors pass through. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ConnectorError) throw e;
      throw new ConnectorError('TRANSIENT', true, `WhatsApp Web did not accept the request: ${String((e as Error)?.message ?? e)}`);
    }
  }
}
