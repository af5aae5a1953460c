import { ulid } from 'ulid';
import { RETRY, retryOnConflict } from '../db/retry.ts';
import { db } from '../db/service.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { enqueue } from '../ports/commands.ts';
import { applyMessageToChat, isServiceWindowOpen, serviceWindowEnd } from '../chat/chat.rules.ts';
import { toChatWire, toMessageWire, latestOf } from './wire.ts';
import { applyStatuses, syncLatestAck } from './statuses.ts';
import { AppError, notFound } from '../errors.ts';
import { phoneAccessToken } from '../phone/phone.ts';
import { sendToGraph, textMessageBody, mediaMessageBody, uploadMedia, GraphApiError } from '../whatsapp/cloud/graph-client.ts';
import { prepareOutboundMedia, type PreparedMedia } from '../media/outbound.ts';
import { recordMediaItemSafely } from '../media/media-library.ts';
import { sharedGraphUpload } from '../broadcast/broadcast-upload.ts';
import { OUTBOUND_MEDIA_TYPES, type OutboundMediaType } from '../media/media.rules.ts';
import type { StoredMedia } from '../media/media.ts';
import { blobPort } from '../ports/blobs.ts';
import { explainGraphError } from '../whatsapp/cloud/errors.ts';
import { deliveryInfoFor } from '../message/ack.rules.ts';
import type { Actor } from '../auth/actor.ts';
import { ACK, type SendMessageInput, type Message } from '../message/message.schemas.ts';
import { chatWriteTx, type ChatRow } from '../chat/chat-write.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import { log } from '../log.ts';
import { isConflictError } from '../db/retry.ts';
import { callbackDataFor, canRetrySend, parseCallbackData, UNCERTAIN_REASON } from './send-reconcile.rules.ts';
import { quoteFromGroup } from '../message/reply-privately.ts';
import { METRIC, recordMetric } from '../metrics.ts';
// issue 16: template messages (outside the 24-hour window)
import { buildTemplateSend } from '../template/template.rules.ts';
import type { TemplateSnapshot } from '../template/template-send.ts';
import { RATE_LIMIT_CODES } from '../broadcast/broadcast.rules.ts';
import { notePhoneRateLimited } from '../broadcast/broadcast-signals.ts';
// issue 41: customers known only by their business-scoped user id (BSUID)
import { identityOf, NO_SEND_TARGET, sendTargetOf, templateTargetProblem, type SendTarget } from '../chat/send-target.rules.ts';

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
  /**
   * epoch ms until which the chat's 24-hour window is known open (serviceWindowEnd of the chat row
   * the message was stored with; a window only moves later): before it the consumer does not read
   * the chat again for its window check. Absent (re-queued commands): the chat is read.
   */
  window_until?: number;
  /**
   * issue 41: whom the Graph send addresses (sendTargetOf of the chat row the message was stored
   * with: `to` a number or group, `recipient` a BSUID), so a consumer that skips the chat read still
   * reaches a customer known only by BSUID. Absent (re-queued commands, commands queued before it
   * existed): the consumer reads the chat for it.
   */
  target?: SendTarget;
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
  /** issue 16: a template message (`message_type: 'template'`, the snapshot kept in `content.template`; `body` is its filled preview) */
  template?: TemplateSnapshot;
  /**
   * issue 16 broadcasts: the message's key fixed by the caller (the broadcast recipient's claim), so a
   * send retried after a crash finds the message it stored before instead of storing a second one
   */
  key?: { unique_id: string; timestamp: number };
  /**
   * issue 16 broadcasts: the chat row as the caller read it moments ago (a page of recipients' chats
   * in one BatchGet), used by the first attempt instead of a GetItem. The chat write is conditional on
   * its version, so a row that changed meanwhile loses the race and is read again (retryOnConflict).
   */
  chat?: Record<string, unknown>;
  /**
   * issue 42 §4: store the message as already delivered under this made-up wamid and never queue it
   * for WhatsApp. Only the local demo seed uses it (scripts/local/seed-sample.ts): sample replies to
   * made-up numbers must not leave the machine, whatever WHATSAPP_GRAPH_URL says.
   */
  delivered?: { wamid: string };
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
  let given = internal.chat as Awaited<ReturnType<ReturnType<ReturnType<typeof db>['entities']['chat']['get']>['go']>>['data'] | undefined;
  return retryOnConflict(`chat ${chatId} (sending)`, async () => {
    const chat = given ?? (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data;
    given = undefined;
    if (!chat) throw notFound('chat');
    const now = mediaAt ?? internal.key?.timestamp ?? Date.now();
    const message = {
      org_id: orgId,
      chat_id: chatId,
      unique_id: mediaUniqueId ?? internal.key?.unique_id ?? ulid(now),
      timestamp: now,
      org_phone: chat.org_phone,
      phone_id: chat.phone_id,
      sender_phone: chat.org_phone,
      author: actor.email,
      // a media message's text is its caption, as on inbound media
      body: prepared ? (prepared.media.caption ?? undefined) : input.body,
      from_me: true,
      ack: internal.delivered ? ACK.DELIVERED : 0,
      delivery_info: deliveryInfoFor(internal.delivered ? ACK.DELIVERED : 0),
      ...(internal.delivered ? { message_id: internal.delivered.wamid, sent_message_id: internal.delivered.wamid } : {}),
      message_type: prepared?.message_type ?? (internal.template ? 'template' : 'text'),
      ...(prepared ? { media: prepared.media } : {}),
      ...(internal.template ? { content: { template: internal.template } } : {}),
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
        items: [
          e.message.create(message).commit() as TxItem,
          ...w.items,
          // a delivered message's wamid finds it like a sent one's (quotes, reactions): recordAccepted's ref, 30 days
          ...(internal.delivered
            ? [e.waMessageRef.create({ org_id: orgId, message_id: internal.delivered.wamid, chat_id: chatId, unique_id: message.unique_id, timestamp: now, expires_at: Math.floor(Date.now() / 1000) + 30 * 24 * 3600 }).commit() as TxItem]
            : []),
        ],
        events: [{ name: 'message.sent', properties: { org_id: orgId, chat: toChatWire(w.row), message: wire }, actor: `user:${actor.email}`, id: `message.sent:${orgId}:${message.unique_id}` }],
      };
    });
    if (!ok) return RETRY;
    // the media library's row of a member's file (idempotent put; its failure is logged, not thrown)
    if (prepared) await recordMediaItemSafely(message, chat.chat_name ?? null);
    if (internal.delivered) return wire;
    const windowUntil = serviceWindowEnd(chat as unknown as Chat, chat.org_phone);
    const target = sendTargetOf(chatId, identityOf(chat));
    const command: OutboundCommand = {
      org_id: orgId,
      chat_id: chatId,
      unique_id: message.unique_id,
      timestamp: now,
      ...(windowUntil != null && windowUntil > now2 ? { window_until: windowUntil } : {}),
      ...(target ? { target } : {}),
    };
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

/** A queued message's stored item (null when it is gone), as the outbound consumer reads it once. */
export type OutboundMessage = Awaited<ReturnType<typeof outboundMessage>>;

/**
 * The stored item of a queued message (one GetItem; null when it is gone). The outbound consumer
 * reads it once and hands it to handOverToWaWeb and deliverMessage (issue 16: it was read twice).
 */
export async function outboundMessage(cmd: OutboundCommand) {
  return (await db().entities.message.get({ org_id: cmd.org_id, chat_id: cmd.chat_id, timestamp: cmd.timestamp, unique_id: cmd.unique_id }).go()).data;
}

/**
 * Deliver a queued message through the Graph API.
 *
 * Never twice silently (issue 23 item 4): just before the Graph call the message is claimed
 * (`send_started_at`, a conditional write). A consumer that finds the claim without a recorded
 * wamid knows a process died during the call, so WhatsApp may have the message: it does not call
 * again, it marks the send uncertain (markSendUncertain). Meta's status webhooks carry back the
 * send's `biz_opaque_callback_data`, and reconcileSentStatus records the wamid when one arrives. A
 * call Meta answered with an error releases the claim, so retries of rate limits and 5xx go on.
 * @param attempt 1-based receive count of the queue record; on the last attempt a retryable
 *   failure is recorded as failed instead of thrown
 * @param loaded the message as outboundMessage read it just now (null: gone); read here when omitted
 * @throws GraphApiError when the failure is retryable and attempts remain (the queue retries)
 */
export async function deliverMessage(cmd: OutboundCommand, attempt: number, maxAttempts: number, loaded?: OutboundMessage): Promise<void> {
  const key = { org_id: cmd.org_id, chat_id: cmd.chat_id, timestamp: cmd.timestamp, unique_id: cmd.unique_id };
  const msg = loaded !== undefined ? loaded : await outboundMessage(cmd);
  if (!msg) {
    log('warn', 'outbound.message_missing', key);
    return;
  }
  // already accepted, failed or uncertain: at-least-once redelivery (Retry queues it afresh)
  if (msg.message_id || msg.ack === -1 || msg.send_uncertain_at != null) return;
  const template = msg.message_type === 'template' ? ((msg.content as { template?: TemplateSnapshot } | undefined)?.template ?? null) : null;
  // templates are the one message type allowed outside the window (Meta A.8); a window the command
  // knows open until later needs no read (issue 16: one GetItem per broadcast recipient fewer).
  // The target comes with the command (issue 41); a command without one reads the chat for it.
  const knownOpen = template != null || (cmd.window_until != null && Date.now() < cmd.window_until);
  const chat = knownOpen && cmd.target ? null : (await db().entities.chat.get({ org_id: cmd.org_id, chat_id: cmd.chat_id }).go()).data;
  if (!knownOpen && !chat) return;
  if (!knownOpen && !isServiceWindowOpen(chat as unknown as Chat, msg.org_phone, Date.now())) {
    const info = explainGraphError(131047);
    await markFailed(key, msg, { code: null, title: null, details: 'Checked by Chorus before sending: no customer message in the last 24 hours.', reason: info.reason });
    return;
  }
  // the freshest identity at hand: the chat row when it was read (a number may have become known
  // since the message was queued), else the command's
  const target = chat ? sendTargetOf(cmd.chat_id, identityOf(chat)) : (cmd.target ?? sendTargetOf(cmd.chat_id));
  if (!target) {
    await markFailed(key, msg, { code: null, title: null, details: 'Checked by Chorus before sending: the chat has no phone number and no WhatsApp user id.', reason: NO_SEND_TARGET });
    return;
  }
  // authentication templates need a phone number (Meta error 131062 for a BSUID): the number may
  // have been unknown when the send was requested without the request checking it (broadcasts, schedules)
  const problem = template ? templateTargetProblem(template.category, target) : null;
  if (problem) {
    await markFailed(key, msg, { code: null, title: null, details: 'Checked by Chorus before sending: authentication templates cannot be sent to a WhatsApp user id.', reason: problem });
    return;
  }
  // a phone added on /settings/phones sends with its own token; the demo/env phone with the global one
  const token = await phoneAccessToken(msg.phone_id);
  try {
    // Meta's context.message_id quotes a message of the same conversation only: a quote from another
    // chat (reply privately) stays ours (the bubble shows it), WhatsApp gets the text alone
    const q = msg.quoted_message as { message_id?: string; chat_id?: string | null } | undefined;
    const context = q?.message_id && (!q.chat_id || q.chat_id === cmd.chat_id) ? q.message_id : undefined;
    const body = template
      ? buildTemplateSend(target, template, template.values)
      : isOutboundMedia(msg.message_type)
      ? mediaMessageBody(target, msg.message_type, await graphMediaRef(key, msg.phone_id, msg.media as StoredMedia | undefined, token), context)
      : textMessageBody(target, msg.body ?? '', context);
    const payload = { ...body, biz_opaque_callback_data: callbackDataFor(key) };
    if (!(await claimSend(key))) {
      // claimed before, no wamid recorded: a process died during the call (or one is in it now)
      await markSendUncertain(key, msg);
      return;
    }
    let wamid: string;
    try {
      ({ wamid } = await sendToGraph(msg.phone_id, payload, token));
    } catch (e) {
      if (e instanceof GraphApiError && e.mayHaveBeenSent) {
        await markSendUncertain(key, msg, e.details ?? undefined);
        return;
      }
      // Meta answered (or nothing left this machine): nothing was sent, a later attempt may call again
      await releaseSend(key);
      throw e;
    }
    crashAfterGraphHook();
    await recordAccepted(key, msg, wamid);
  } catch (e) {
    if (!(e instanceof GraphApiError)) throw e;
    // issue 16: a rate limit on this number slows the broadcasts sending from it
    if (e.code != null && RATE_LIMIT_CODES.includes(e.code)) await notePhoneRateLimited(cmd.org_id, msg.phone_id, e.code);
    if (e.retryable && attempt < maxAttempts) throw e;
    await markFailed(key, msg, { code: e.code, title: e.title, details: e.details, reason: e.reason });
  }
}

/**
 * Test hook of the kill test (tests/integration/outbound-kill.test.ts):
 * `CHORUS_OUTBOUND_CRASH_AFTER_GRAPH=1` kills the process (SIGKILL) right after the Graph API
 * accepted a message and before its wamid is recorded, the one point where a blind retry would
 * send the message twice.
 */
function crashAfterGraphHook(): void {
  if (process.env.CHORUS_OUTBOUND_CRASH_AFTER_GRAPH === '1') process.kill(process.pid, 'SIGKILL');
}

type MessageKey = { org_id: string; chat_id: string; timestamp: number; unique_id: string };

/** Claim the Graph call of a message (`send_started_at`, epoch ms): false when it was claimed before. */
async function claimSend(key: MessageKey): Promise<boolean> {
  try {
    await db()
      .entities.message.patch(key)
      .set({ send_started_at: Date.now() })
      .where(({ send_started_at }, { notExists }) => notExists(send_started_at))
      .go();
    return true;
  } catch (e) {
    if (isConflictError(e)) return false;
    throw e;
  }
}

/** Release the claim after Meta answered with an error (nothing was sent). */
async function releaseSend(key: MessageKey): Promise<void> {
  await db().entities.message.patch(key).remove(['send_started_at']).go();
}

/**
 * Chorus cannot tell whether WhatsApp took the message: keep it pending (ack 0), set
 * `send_uncertain_at` (epoch ms) with the reason in `delivery_error`, and publish `message.updated`
 * so the bubble says "may not have been sent" with Retry. Nothing when the wamid got recorded in the
 * meantime (condition on `message_id`).
 */
export async function markSendUncertain(key: MessageKey, msg: Record<string, unknown>, details?: string): Promise<void> {
  const now = Date.now();
  const delivery_error = { code: null, title: null, details: details ?? null, reason: UNCERTAIN_REASON };
  const retries = (msg.send_retries as number | undefined) ?? 0;
  const ok = await commitWithEvents((e) => ({
    items: [
      e.message
        .patch(key)
        .set({ send_uncertain_at: now, delivery_error })
        .where(({ message_id }, { notExists }) => notExists(message_id))
        .commit() as TxItem,
    ],
    events: [
      {
        name: 'message.updated',
        properties: { org_id: key.org_id, chat_id: key.chat_id, message: toMessageWire({ ...msg, send_uncertain_at: now, delivery_error }) },
        actor: 'system',
        id: `message.updated:${key.org_id}:${key.unique_id}:uncertain:${retries}`,
      },
    ],
  }));
  if (ok) log('warn', 'outbound.send_uncertain', { ...key });
}

/**
 * A status webhook for a wamid Chorus never recorded (issue 23 item 4): when its
 * `biz_opaque_callback_data` names one of this org's outbound messages that has no wamid yet, the
 * send that crashed did reach WhatsApp: record the wamid (recordAccepted clears the uncertain state
 * and applies the statuses waiting on the ref).
 * @returns true when a message was reconciled
 */
export async function reconcileSentStatus(orgId: string, wamid: string, callbackData: string | undefined): Promise<boolean> {
  const k = parseCallbackData(callbackData);
  if (!k) return false;
  const key = { org_id: orgId, ...k };
  const msg = (await db().entities.message.get(key).go()).data;
  if (!msg || !msg.from_me || msg.message_id) return false;
  await recordAccepted(key, msg, wamid);
  log('info', 'outbound.reconciled', { ...key, message_id: wamid });
  return true;
}

/**
 * POST …/messages/{unique_id}/retry: a member sends again a message WhatsApp refused or one whose
 * send is uncertain (canRetrySend). The same message goes back to pending (ack 0, no error), on the
 * queue, and `message.updated` is published. A retry of an uncertain message is the member's choice
 * to risk a duplicate; Chorus never makes it on its own.
 * @returns the message as it is now
 * @throws AppError 400 message.retry_refused when the message cannot be retried; 404 the message; 409 when it changed meanwhile
 */
export async function retrySend(orgId: string, chatId: string, msg: Message): Promise<Message> {
  if (!canRetrySend(msg)) {
    throw new AppError('message.retry_refused', 'Only a message of yours that failed or may not have been sent can be sent again.', {
      details: [{ field: 'unique_id', reason: 'is not a failed or uncertain message' }],
    });
  }
  const key = { org_id: orgId, chat_id: chatId, timestamp: msg.timestamp, unique_id: msg.unique_id };
  const send_retries = (msg.send_retries ?? 0) + 1;
  const delivery_info = deliveryInfoFor(0);
  const next = { ...msg, ack: 0, delivery_info, delivery_error: null, send_uncertain_at: null, send_retries };
  const ok = await commitWithEvents((e) => ({
    items: [
      e.message
        .patch(key)
        .set({ ack: 0, delivery_info, send_retries })
        .remove(['delivery_error', 'send_uncertain_at', 'send_started_at'])
        .where(({ message_id, send_retries: r }, { notExists, eq }) => `${notExists(message_id)} AND ${msg.send_retries ? eq(r, msg.send_retries) : notExists(r)}`)
        .commit() as TxItem,
    ],
    events: [{ name: 'message.updated', properties: { org_id: orgId, chat_id: chatId, message: next as Message }, actor: 'system', id: `message.updated:${orgId}:${msg.unique_id}:retry:${send_retries}` }],
  }));
  if (!ok) throw new AppError('message.changed', 'This message changed meanwhile. Please look again.', { status: 409 });
  await syncLatestAck(orgId, chatId, msg.unique_id, 0);
  const command: OutboundCommand = { org_id: orgId, chat_id: chatId, unique_id: msg.unique_id, timestamp: msg.timestamp };
  await enqueue('whatsapp-outbound', command);
  return next as Message;
}

/**
 * issue 16 broadcasts: put back on the queue a send whose Graph call was claimed by a process that
 * died before calling (shared/broadcast/broadcast.ts reconcileSends, after the Graph side said
 * nothing was accepted with the send's callback data and the claim is too old to have a live owner).
 * The claim (and an uncertain mark) is removed only if it is still the claim `claimedAt` (epoch ms)
 * and no wamid was recorded, so two reconcilers never both queue it; `message.updated` is published
 * (the bubble no longer says "may not have been sent").
 * @returns false when the message changed meanwhile (nothing done)
 */
export async function releaseDeadSend(key: MessageKey, msg: Record<string, unknown>, claimedAt: number): Promise<boolean> {
  const next = { ...msg, send_uncertain_at: null, delivery_error: null };
  const ok = await commitWithEvents((e) => ({
    items: [
      e.message
        .patch(key)
        .remove(['send_started_at', 'send_uncertain_at', 'delivery_error'])
        .where(({ message_id, send_started_at, ack }, { notExists, eq }) => `${notExists(message_id)} AND ${eq(send_started_at, claimedAt)} AND ${eq(ack, 0)}`)
        .commit() as TxItem,
    ],
    events: [{ name: 'message.updated', properties: { org_id: key.org_id, chat_id: key.chat_id, message: toMessageWire(next) }, actor: 'system', id: `message.updated:${key.org_id}:${key.unique_id}:released:${claimedAt}` }],
  }));
  if (!ok) return false;
  log('warn', 'outbound.dead_claim_released', { ...key, claimed_at: claimedAt });
  await enqueue('whatsapp-outbound', { org_id: key.org_id, chat_id: key.chat_id, unique_id: key.unique_id, timestamp: key.timestamp } satisfies OutboundCommand);
  return true;
}

/** Event-id suffix of a retried send's events (the first attempt keeps its old ids). */
const retrySuffix = (msg: Record<string, unknown>): string => (msg.send_retries ? `:r${msg.send_retries as number}` : '');

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
  const upload = () => uploadMedia(phoneId, blob.bytes, media.mimetype ?? blob.contentType, name, token);
  // a broadcast's uploaded file: one Graph upload per number, shared by every recipient (broadcast-upload.ts)
  const { id } = media.broadcast_upload_id ? await sharedGraphUpload(key.org_id, media.broadcast_upload_id, phoneId, upload) : await upload();
  // uploaded_at (epoch ms): a forward from this number may reuse the id while Meta keeps it (30 days)
  await db().entities.message.patch(key).set({ media: { ...media, media_id: id, media_phone_id: phoneId, uploaded_at: Date.now() } }).go();
  return { id, ...ref };
}

/**
 * WhatsApp accepted a queued message as `wamid` (Graph API, or a WhatsApp Web session): keep the id
 * on the message, point the wamid ref at it and apply any statuses that beat us there, and publish
 * `message.updated`. Idempotent.
 * The common case (no status webhook came first) is one transaction: the message, its event and the
 * ref created in it (conditional on no ref yet). When a ref exists already (statuses that beat us, or
 * a repeat), that transaction is cancelled and the ref is upserted on its own and its statuses applied.
 */
export async function recordAccepted(key: { org_id: string; chat_id: string; timestamp: number; unique_id: string }, msg: Record<string, unknown>, wamid: string): Promise<void> {
  const uncertain = msg.send_uncertain_at != null;
  const refFields = { chat_id: key.chat_id, unique_id: key.unique_id, timestamp: key.timestamp, expires_at: Math.floor(Date.now() / 1000) + 30 * 24 * 3600 };
  const commit = (withRef: boolean) =>
    commitWithEvents((e) => ({
      items: [
        (uncertain
          ? e.message.patch(key).set({ message_id: wamid, sent_message_id: wamid }).remove(['send_uncertain_at', 'delivery_error'])
          : e.message.patch(key).set({ message_id: wamid, sent_message_id: wamid })
        ).commit() as TxItem,
        // create: only when no ref exists (a status webhook's ref keeps its statuses: the path below)
        ...(withRef ? [e.waMessageRef.create({ org_id: key.org_id, message_id: wamid, ...refFields }).commit() as TxItem] : []),
      ],
      events: [{ name: 'message.updated', properties: { org_id: key.org_id, chat_id: key.chat_id, message: toMessageWire({ ...msg, message_id: wamid, sent_message_id: wamid, ...(uncertain ? { send_uncertain_at: null, delivery_error: null } : {}) }) }, actor: 'system', id: `message.updated:${key.org_id}:${key.unique_id}:wamid${retrySuffix(msg)}` }],
    }));
  if (await commit(true)) return;
  await commit(false);
  // The ref may already hold statuses that beat us here; upsert and apply whatever is there.
  const ref = await db().entities.waMessageRef.update({ org_id: key.org_id, message_id: wamid }).set(refFields).go({ response: 'all_new' });
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
        id: `message.status_updated:${key.org_id}:${key.unique_id}:-1${retrySuffix(msg)}`,
      },
    ],
  }));
  recordMetric(METRIC.sendFailures, 1, { dimensions: { code: String(delivery_error.code ?? 'none') } });
  await syncLatestAck(key.org_id, key.chat_id, key.unique_id, -1);
}
