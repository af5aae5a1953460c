import { ulid } from 'ulid';
import { RETRY, retryOnConflict } from '../db/retry.ts';
import { db } from '../db/service.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { enqueue } from '../ports/commands.ts';
import { applyMessageToChat, isServiceWindowOpen } from '../chat/chat.rules.ts';
import { toChatWire, toMessageWire, latestOf } from './wire.ts';
import { applyStatuses, syncLatestAck } from './statuses.ts';
import { AppError, notFound } from '../errors.ts';
import { phoneAccessToken } from '../phone/phone.ts';
import { sendToGraph, textMessageBody, mediaMessageBody, uploadMedia, GraphApiError } from '../whatsapp/cloud/graph-client.ts';
import { prepareOutboundMedia, type PreparedMedia } from '../media/outbound.ts';
import { recordMediaItemSafely } from '../media/media-library.ts';
import { OUTBOUND_MEDIA_TYPES, type OutboundMediaType } from '../media/media.rules.ts';
import type { StoredMedia } from '../media/media.ts';
import { blobPort } from '../ports/blobs.ts';
import { explainGraphError } from '../whatsapp/cloud/errors.ts';
import { deliveryInfoFor } from '../message/ack.rules.ts';
import type { Actor } from '../auth/actor.ts';
import type { SendMessageInput, Message } from '../message/message.schemas.ts';
import { chatWriteTx, type ChatRow } from '../chat/chat-write.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import { log } from '../log.ts';
import { quoteFromGroup } from '../message/reply-privately.ts';
import { METRIC, recordMetric } from '../metrics.ts';

/**
 * Outbound messages (spec §7 message calls; Meta "Send messages"): text, and image, video,
 * audio and document files uploaded beforehand (shared/media/outbound.ts).
 * `sendMessage` stores the member's message (ack 0, pending) with the chat row update in one
 * transaction, queues it for WhatsApp and publishes `message.sent`. `deliverMessage` is the
 * queue consumer's use case: it calls the Graph API once per message (idempotent on the stored
 * wamid) and records the outcome.
 */

/** Command carried on the whatsapp-outbound queue. */
export interface OutboundCommand {
  org_id: string;
  chat_id: string;
  unique_id: string;
  /** epoch ms (the message's sort key) */
  timestamp: number;
}

/**
 * What other use cases hand sendMessage besides the API input: forward (an already stored file,
 * `forwarded`) and reply privately (a quote from another chat, kept for the team only).
 */
export interface InternalSend {
  /** a stored file to send as it is (not an upload of this chat); `media.media_id` reused when still valid */
  prepared?: PreparedMedia;
  /** spec §3 `forwarded` */
  forwarded?: 'forwarded';
  /** the stored quote (Message.quoted_message); WhatsApp gets `context` only when it is a message of this chat */
  quoted?: Message['quoted_message'];
}

/**
 * Store a member's message and queue it for WhatsApp: text (`body`) or an uploaded file
 * (`media`, checked by prepareOutboundMedia, with `caption` as its text).
 * @throws AppError 404 chat.not_found; 400 validation.failed when quoted_message_id is not a message of
 *   this chat, or the uploaded file is missing, too large or not what it claims to be
 */
export async function sendMessage(actor: Actor, chatId: string, input: SendMessageInput, internal: InternalSend = {}): Promise<Message> {
  const orgId = actor.org_id;
  let quoted: Message['quoted_message'] = internal.quoted;
  if (input.quoted_message_id && input.quoted_chat_id && input.quoted_chat_id !== chatId) {
    // reply privately: a group member's message quoted in the 1:1 chat (kept for the team; not sent as context)
    quoted = await quoteFromGroup(orgId, chatId, input.quoted_chat_id, input.quoted_message_id);
  } else if (input.quoted_message_id) {
    const ref = (await db().entities.waMessageRef.get({ org_id: orgId, message_id: input.quoted_message_id }).go()).data;
    if (!ref || ref.chat_id !== chatId || !ref.unique_id || ref.timestamp == null) {
      throw new AppError('validation.failed', 'quoted_message_id: is not a message of this chat', {
        details: [{ field: 'quoted_message_id', reason: 'is not a message of this chat' }],
      });
    }
    const q = (await db().entities.message.get({ org_id: orgId, chat_id: chatId, timestamp: ref.timestamp, unique_id: ref.unique_id }).go()).data;
    quoted = { message_id: input.quoted_message_id, unique_id: ref.unique_id, body: q?.body ?? null, author: q?.author ?? null, from_me: q?.from_me ?? null };
  }
  // a file's id (and so its timestamp: the key is decoded from the ulid) is fixed up front, because
  // its thumbnail is stored under the message's folder
  let prepared: PreparedMedia | undefined = internal.prepared;
  let mediaUniqueId: string | undefined;
  let mediaAt: number | undefined;
  if (input.media) {
    if (!(await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data) throw notFound('chat');
    mediaAt = Date.now();
    mediaUniqueId = ulid(mediaAt);
    prepared = await prepareOutboundMedia(orgId, chatId, mediaUniqueId, input.media, input.caption?.trim() || undefined);
  }
  return retryOnConflict(`chat ${chatId} (sending)`, async () => {
    const chat = (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data;
    if (!chat) throw notFound('chat');
    const now = mediaAt ?? Date.now();
    const message = {
      org_id: orgId,
      chat_id: chatId,
      unique_id: mediaUniqueId ?? ulid(now),
      timestamp: now,
      org_phone: chat.org_phone,
      phone_id: chat.phone_id,
      sender_phone: chat.org_phone,
      author: actor.email,
      // a media message's text is its caption, as on inbound media
      body: prepared ? (prepared.media.caption ?? undefined) : input.body,
      from_me: true,
      ack: 0,
      delivery_info: deliveryInfoFor(0),
      message_type: prepared?.message_type ?? 'text',
      ...(prepared ? { media: prepared.media } : {}),
      quoted_message: quoted,
      ...(internal.forwarded ? { forwarded: internal.forwarded } : {}),
      ...(input.client_id ? { client_id: input.client_id } : {}),
      version: 0,
    };
    const next = applyMessageToChat(chat as unknown as Chat & { version: number }, {
      latest: latestOf(message),
      org_phone: chat.org_phone,
      phone_id: chat.phone_id,
      countsAsUnread: false,
      fromCustomer: false,
    });
    const fields = {
      latest_message: next.latest_message,
      latest_message_timestamp: next.latest_message_timestamp,
      latest_message_timestamp_map: next.latest_message_timestamp_map ?? {},
      chat_org_phones: next.chat_org_phones ?? [],
    };
    const now2 = Date.now();
    const wire = toMessageWire(message);
    // the message, the chat row and message.sent in one transaction (the outbox)
    const ok = await commitWithEvents((e) => {
      const w = chatWriteTx(e, chat as ChatRow, { ...chat, ...fields } as ChatRow, now2);
      return {
        items: [e.message.create(message).commit() as TxItem, ...w.items],
        events: [{ name: 'message.sent', properties: { org_id: orgId, chat: toChatWire(w.row), message: wire }, actor: `user:${actor.email}`, id: `message.sent:${orgId}:${message.unique_id}` }],
      };
    });
    if (!ok) return RETRY;
    // the media library's row of a member's file (idempotent put; its failure is logged, not thrown)
    if (prepared) await recordMediaItemSafely(message, chat.chat_name ?? null);
    const command: OutboundCommand = { org_id: orgId, chat_id: chatId, unique_id: message.unique_id, timestamp: now };
    try {
      await enqueue('whatsapp-outbound', command);
    } catch (e) {
      // Never leave a message pending forever: say it failed, and why, where the agent looks.
      log('error', 'outbound.enqueue_failed', { ...command, error: String((e as Error).message) });
      await markFailed(command, message, { code: null, title: null, details: null, reason: 'Chorus could not queue this message for WhatsApp. Please send it again.' });
      throw new AppError('message.not_queued', 'The message could not be queued for WhatsApp. Please try again.', { status: 503 });
    }
    return wire;
  }, { onExhausted: () => {
    throw new AppError('chat.busy', 'This chat is receiving many updates right now. Please try again.', { status: 409 });
  } });
}

/**
 * Deliver a queued message through the Graph API.
 * @param attempt 1-based receive count of the queue record; on the last attempt a retryable
 *   failure is recorded as failed instead of thrown
 * @throws GraphApiError when the failure is retryable and attempts remain (the queue retries)
 */
export async function deliverMessage(cmd: OutboundCommand, attempt: number, maxAttempts: number): Promise<void> {
  const key = { org_id: cmd.org_id, chat_id: cmd.chat_id, timestamp: cmd.timestamp, unique_id: cmd.unique_id };
  const msg = (await db().entities.message.get(key).go()).data;
  if (!msg) {
    log('warn', 'outbound.message_missing', key);
    return;
  }
  if (msg.message_id || msg.ack === -1) return; // already accepted or failed: at-least-once redelivery
  const chat = (await db().entities.chat.get({ org_id: cmd.org_id, chat_id: cmd.chat_id }).go()).data;
  if (!chat) return;
  const [to, server] = cmd.chat_id.split('@');
  if (!isServiceWindowOpen(chat as unknown as Chat, msg.org_phone, Date.now())) {
    const info = explainGraphError(131047);
    await markFailed(key, msg, { code: null, title: null, details: 'Checked by Chorus before sending: no customer message in the last 24 hours.', reason: info.reason });
    return;
  }
  const recipientType = server === 'g.us' ? 'group' : 'individual';
  // a phone added on /settings/phones sends with its own token; the demo/env phone with the global one
  const token = await phoneAccessToken(msg.phone_id);
  try {
    // Meta's context.message_id quotes a message of the same conversation only: a quote from another
    // chat (reply privately) stays ours (the bubble shows it), WhatsApp gets the text alone
    const q = msg.quoted_message as { message_id?: string; chat_id?: string | null } | undefined;
    const context = q?.message_id && (!q.chat_id || q.chat_id === cmd.chat_id) ? q.message_id : undefined;
    const payload = isOutboundMedia(msg.message_type)
      ? mediaMessageBody(to, msg.message_type, await graphMediaRef(key, msg.phone_id, msg.media as StoredMedia | undefined, token), context, recipientType)
      : textMessageBody(to, msg.body ?? '', context, recipientType);
    const { wamid } = await sendToGraph(msg.phone_id, payload, token);
    await recordAccepted(key, msg, wamid);
  } catch (e) {
    if (!(e instanceof GraphApiError)) throw e;
    if (e.retryable && attempt < maxAttempts) throw e;
    await markFailed(key, msg, { code: e.code, title: e.title, details: e.details, reason: e.reason });
  }
}

const isOutboundMedia = (t: string): t is OutboundMediaType => (OUTBOUND_MEDIA_TYPES as readonly string[]).includes(t);

/**
 * Meta's media id of a member's file: uploaded from the blob store on the first attempt and kept on
 * the message (`media.media_id`; Meta keeps uploads 30 days), so a retried send does not upload again.
 * @throws GraphApiError (not retryable) when the file is no longer stored; the upload's GraphApiError otherwise
 */
async function graphMediaRef(key: { org_id: string; chat_id: string; timestamp: number; unique_id: string }, phoneId: string, media: StoredMedia | undefined, token: string | undefined) {
  const ref = { caption: media?.caption ?? null, filename: media?.filename ?? null };
  if (media?.media_id) return { id: media.media_id, ...ref };
  const blob = media?.path ? await (await blobPort()).get(media.path) : undefined;
  if (!media?.path || !blob) throw new GraphApiError(null, null, 'The file is no longer in the media store.', 'The file of this message is no longer available. Please attach it again.', false, 0);
  const name = media.filename ?? media.path.slice(media.path.lastIndexOf('/') + 1);
  const { id } = await uploadMedia(phoneId, blob.bytes, media.mimetype ?? blob.contentType, name, token);
  // uploaded_at (epoch ms): a forward from this number may reuse the id while Meta keeps it (30 days)
  await db().entities.message.patch(key).set({ media: { ...media, media_id: id, media_phone_id: phoneId, uploaded_at: Date.now() } }).go();
  return { id, ...ref };
}

/**
 * WhatsApp accepted a queued message as `wamid` (Graph API, or a WhatsApp Web session): keep the id
 * on the message, point the wamid ref at it and apply any statuses that beat us there, and publish
 * `message.updated`. Idempotent.
 */
export async function recordAccepted(key: { org_id: string; chat_id: string; timestamp: number; unique_id: string }, msg: Record<string, unknown>, wamid: string): Promise<void> {
  await commitWithEvents((e) => ({
    items: [e.message.patch(key).set({ message_id: wamid, sent_message_id: wamid }).commit() as TxItem],
    events: [{ name: 'message.updated', properties: { org_id: key.org_id, chat_id: key.chat_id, message: toMessageWire({ ...msg, message_id: wamid, sent_message_id: wamid }) }, actor: 'system', id: `message.updated:${key.org_id}:${key.unique_id}:wamid` }],
  }));
  // The ref may already hold statuses that beat us here; upsert and apply whatever is there.
  const ref = await db()
    .entities.waMessageRef.update({ org_id: key.org_id, message_id: wamid })
    .set({ chat_id: key.chat_id, unique_id: key.unique_id, timestamp: key.timestamp, expires_at: Math.floor(Date.now() / 1000) + 30 * 24 * 3600 })
    .go({ response: 'all_new' });
  await applyStatuses(key.org_id, ref.data as Record<string, unknown>);
}

/** Mark a queued message failed with `delivery_error` (its `reason` is what the agent reads), keep the chat row's tick in step, publish. */
export async function markFailed(
  key: { org_id: string; chat_id: string; timestamp: number; unique_id: string },
  msg: Record<string, unknown>,
  delivery_error: { code: number | null; title: string | null; details: string | null; reason: string },
): Promise<void> {
  const delivery_info = deliveryInfoFor(-1);
  await commitWithEvents((e) => ({
    items: [e.message.patch(key).set({ ack: -1, delivery_error, delivery_info }).commit() as TxItem],
    events: [
      {
        name: 'message.status_updated',
        properties: { org_id: key.org_id, chat_id: key.chat_id, message: toMessageWire({ ...msg, ack: -1, delivery_error, delivery_info }) },
        actor: 'system',
        id: `message.status_updated:${key.org_id}:${key.unique_id}:-1`,
      },
    ],
  }));
  recordMetric(METRIC.sendFailures, 1, { dimensions: { code: String(delivery_error.code ?? 'none') } });
  await syncLatestAck(key.org_id, key.chat_id, key.unique_id, -1);
}
