/**
 * Outbound sends that crashed half-way (issue 23 item 4): the Graph API accepted a message, but the
 * process died before it recorded the wamid. Chorus then never sends the message again on its own;
 * it reconciles from Meta's status webhooks, which carry back the `biz_opaque_callback_data` we put
 * on the send (Meta "Send messages": `biz_opaque_callback_data`, up to 512 characters, returned in
 * the `statuses` objects of the messages webhook), and otherwise shows the message as "may not have
 * been sent" with Retry. Pure rules; the use cases are in send.ts.
 */

/** The message key a send's callback data names (timestamp: epoch ms, the message's sort key). */
export interface SentMessageKey {
  chat_id: string;
  timestamp: number;
  unique_id: string;
}

const PREFIX = 'chorus1';
/** Meta's limit on biz_opaque_callback_data */
export const CALLBACK_DATA_MAX = 512;

/**
 * The `biz_opaque_callback_data` of a send: `chorus1|<chat_id>|<timestamp ms>|<unique_id>`. The org
 * is not in it: a status webhook names the phone number, and the phone names the org.
 * @throws Error when the result would exceed Meta's 512 characters (a chat id never does)
 */
export function callbackDataFor(key: SentMessageKey): string {
  const s = `${PREFIX}|${key.chat_id}|${key.timestamp}|${key.unique_id}`;
  if (s.length > CALLBACK_DATA_MAX) throw new Error('biz_opaque_callback_data over 512 characters');
  return s;
}

/** The message key in a status's callback data, or null for data that is not ours (another app's, or malformed). */
export function parseCallbackData(data: string | undefined | null): SentMessageKey | null {
  if (!data) return null;
  const parts = data.split('|');
  if (parts.length !== 4 || parts[0] !== PREFIX) return null;
  const [, chat_id, ts, unique_id] = parts as [string, string, string, string];
  if (!chat_id || !unique_id || !/^\d{1,15}$/.test(ts)) return null;
  return { chat_id, timestamp: Number(ts), unique_id };
}

/** What the bubble says when Chorus cannot tell whether WhatsApp took a message (spec has no text for it). */
export const UNCERTAIN_REASON = 'Chorus stopped while WhatsApp was taking it. This updates when WhatsApp confirms it; otherwise check with the customer or press Retry.';

/**
 * Whether a member may press Retry on an outbound message: one WhatsApp refused (ack -1) or one whose
 * send is uncertain, that is ours, not a private note and not deleted.
 */
export function canRetrySend(m: { from_me: boolean; ack: number; message_id?: string | null; send_uncertain_at?: number | null; is_private_note?: boolean | null; is_deleted?: boolean | null }): boolean {
  if (!m.from_me || m.is_private_note || m.is_deleted || m.message_id) return false;
  return m.ack === -1 || m.send_uncertain_at != null;
}
