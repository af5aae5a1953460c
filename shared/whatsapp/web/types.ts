/**
 * The normalized connector model of whatsapp-protocols.md §C, as the WhatsApp Web (Baileys)
 * connector produces and consumes it. Times are `Date`s here (§C); the inbox's own rows use
 * epoch ms. Pure types plus `ConnectorError`: no I/O, no Baileys import.
 */
export type ChannelKind = 'wa_cloud' | 'wa_web_baileys' | 'wa_web_wwebjs';

/** wa_web: `channelId` is our phone_id, `tenantId` the org_id. */
export interface ChannelRef {
  channelId: string;
  kind: ChannelKind;
  tenantId: string;
}

export interface ChatRef {
  /** the inbox's chat id: `<digits>@c.us` for a person, `<id>@g.us` for a group (same form as the Cloud API normalizer) */
  chatId: string;
  kind: 'direct' | 'group';
  /** other ids of the same chat (the Baileys jid as sent, its LID/PN alternate) */
  altIds?: string[];
}

export interface MediaRef {
  providerMediaId?: string;
  url?: string;
  mimeType?: string;
  /** base64 (Baileys `fileSha256` bytes, encoded) */
  sha256?: string;
  sizeBytes?: number;
  s3Key?: string;
  filename?: string;
  /** Baileys only: what a later download needs (`directPath`, `mediaKey` base64) */
  directPath?: string;
  mediaKey?: string;
}

export type Content =
  | { type: 'text'; text: string; previewUrl?: boolean }
  | { type: 'image' | 'video' | 'sticker' | 'document'; media: MediaRef; caption?: string; filename?: string }
  | { type: 'audio'; media: MediaRef; voice: boolean }
  | { type: 'location'; lat: number; lng: number; name?: string; address?: string; url?: string }
  | { type: 'contacts'; contacts: unknown[] }
  | { type: 'poll'; question: string; options: string[]; multi: boolean }
  | { type: 'unsupported'; providerType?: string; errorCode?: number }
  /** a notification WhatsApp shows in the thread (e.g. "group created"); stored as message_type 'system' */
  | { type: 'system'; text: string };

export type InboundEvent =
  | {
      kind: 'message';
      eventId: string;
      channel: ChannelRef;
      chat: ChatRef;
      /** `id` is the sender's digits (or the group participant's); 'me' side uses the number's own digits when known */
      sender: { id: string; name?: string };
      providerMessageId: string;
      fromMe: boolean;
      sentAt: Date;
      content: Content;
      replyTo?: { providerMessageId: string; fromMe?: boolean; participant?: string };
      forwarded?: 'forwarded' | 'frequently_forwarded';
      raw: unknown;
    }
  | {
      kind: 'status';
      eventId: string;
      channel: ChannelRef;
      chat: ChatRef;
      providerMessageId: string;
      recipientId: string;
      status: 'pending' | 'sent' | 'delivered' | 'read' | 'played' | 'failed';
      at: Date;
      error?: { code: number; title?: string; details?: string; retryable: boolean };
      raw: unknown;
    }
  /**
   * A reaction, an edit, a delete for everyone (revoke): `chat` and `sender` (`fromMe`: our
   * number's phone) are those of the stanza that carried it (Baileys `key`), never of the target it
   * names, so the rules of protocol.rules.ts can check who made the change and where.
   */
  | { kind: 'reaction'; eventId: string; channel: ChannelRef; chat: ChatRef; sender: { id: string }; fromMe: boolean; targetProviderMessageId: string; emoji: string | null; at: Date; raw: unknown }
  | { kind: 'edit'; eventId: string; channel: ChannelRef; chat: ChatRef; sender: { id: string }; fromMe: boolean; providerMessageId: string; newContent: Content; at: Date; raw: unknown }
  | { kind: 'delete'; eventId: string; channel: ChannelRef; chat: ChatRef; sender: { id: string }; fromMe: boolean; providerMessageId: string; at: Date; raw: unknown }
  | { kind: 'session'; channel: ChannelRef; state: 'qr' | 'pairing_code' | 'open' | 'closed' | 'logged_out' | 'locked'; detail?: string };

export interface SendResult {
  providerMessageId: string;
  acceptedAt: Date;
  /** the Baileys WAMessageKey of the sent message (what later edit/delete/react calls need) */
  providerKey?: WaKey;
}

/** Baileys `proto.IMessageKey`, the fields Chorus uses. */
export interface WaKey {
  remoteJid?: string | null;
  fromMe?: boolean | null;
  id?: string | null;
  participant?: string | null;
}

export type ConnectorErrorCode = 'WINDOW_CLOSED' | 'RATE_LIMIT' | 'PAIR_RATE_LIMIT' | 'UNREACHABLE' | 'AUTH' | 'UNSUPPORTED' | 'INVALID' | 'TRANSIENT' | 'ACCOUNT_LOCKED';

/** A typed connector failure (§C). `reason` is in words a person understands. */
export class ConnectorError extends Error {
  constructor(
    readonly code: ConnectorErrorCode,
    readonly retryable: boolean,
    readonly reason: string,
    readonly providerCode?: number,
    readonly retryAfterMs?: number,
  ) {
    super(`${code}: ${reason}`);
    this.name = 'ConnectorError';
  }
}
