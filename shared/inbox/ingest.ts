import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { publish } from '../../events/publish.ts';
import { normalizeWebhook, type NormalizedItem, type NormalizedMessage } from '../whatsapp/cloud/normalize.ts';
import { applyMessageToChat } from '../chat/chat.rules.ts';
import { toChatWire, toMessageWire, latestOf } from './wire.ts';
import { applyStatuses, type StatusRecord } from './statuses.ts';
import { findPhoneByExternalId } from '../phone/phone.ts';
import { log } from '../log.ts';
import type { Chat } from '../chat/chat.schemas.ts';

/**
 * Use case: store what a signed Cloud API webhook body carries (whatsapp-protocols.md A.4/A.5).
 * Idempotent (Meta retries for 7 days): a wamid is stored once, a status applies monotonically.
 * Unusable parts are kept as webhook rejections with a reason; unknown phone_number_ids are
 * logged and ignored. Throws only on infrastructure errors (the queue then retries the body).
 */
export interface IngestSummary {
  stored: number;
  duplicates: number;
  statuses: number;
  rejected: number;
  ignored: number;
}

const REF_TTL_S = 30 * 24 * 3600;

/** Keep a signed-but-unusable body (or fragment) with its reason, for admins (/logs). */
export async function keepRejection(orgId: string | undefined, reason: string, fragment: unknown): Promise<void> {
  const raw = typeof fragment === 'string' ? fragment : JSON.stringify(fragment ?? null);
  await db()
    .entities.webhookRejection.create({
      rejection_id: ulid(),
      org_id: orgId ?? 'unknown',
      reason,
      raw_body: raw.slice(0, 350_000),
      received_at: Date.now(),
      expires_at: Math.floor(Date.now() / 1000) + 90 * 24 * 3600,
    })
    .go();
  log('warn', 'webhook.rejected', { org_id: orgId, reason });
}

/** Ingest one raw webhook body (the exact string Meta signed). */
export async function ingestWebhookBody(rawBody: string): Promise<IngestSummary> {
  const summary: IngestSummary = { stored: 0, duplicates: 0, statuses: 0, rejected: 0, ignored: 0 };
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    await keepRejection(undefined, 'body is not valid JSON', rawBody);
    summary.rejected++;
    return summary;
  }
  const items = normalizeWebhook(json);
  for (const item of items) await ingestItem(item, summary);
  return summary;
}

async function ingestItem(item: NormalizedItem, summary: IngestSummary): Promise<void> {
  if (item.kind === 'ignored') {
    summary.ignored++;
    log('info', 'webhook.ignored', { reason: item.reason });
    return;
  }
  const phone = item.phone_number_id ? await findPhoneByExternalId(item.phone_number_id) : undefined;
  if (item.kind === 'rejected') {
    await keepRejection(phone?.org_id, item.reason, item.fragment);
    summary.rejected++;
    return;
  }
  if (!phone) {
    summary.ignored++;
    log('warn', 'webhook.unknown_phone_number_id', { phone_number_id: item.phone_number_id });
    return;
  }
  if (item.kind === 'status') {
    await recordStatus(phone.org_id, item.message_id, item.status, { timestamp: item.timestamp, errors: item.errors });
    summary.statuses++;
    return;
  }
  const result = await storeInboundMessage(phone, item.message);
  if (result === 'duplicate') summary.duplicates++;
  else summary.stored++;
}

/**
 * Record a status on the wamid's ref item (created if the message is not known yet: a status
 * that arrives first waits there) and, when the message is known, apply it.
 */
export async function recordStatus(orgId: string, wamid: string, status: string, rec: StatusRecord): Promise<void> {
  const updated = await db()
    .entities.waMessageRef.update({ org_id: orgId, message_id: wamid })
    .set({ [`status_${status}`]: rec, expires_at: Math.floor(Date.now() / 1000) + REF_TTL_S } as never)
    .go({ response: 'all_new' });
  const ref = updated.data as Record<string, unknown>;
  if (ref.chat_id) await applyStatuses(orgId, ref);
}

type PhoneRow = { org_id: string; phone_id: string; org_phone: string };

/**
 * Store one inbound message with its dedupe ref, the chat row update and the contact, in one
 * transaction; retried on a concurrent chat update. Publishes `message.received` (also for a
 * duplicate, with the same event id, so an event lost to a crash after the write is re-sent).
 * @returns 'stored' or 'duplicate'
 */
export async function storeInboundMessage(phone: PhoneRow, m: NormalizedMessage): Promise<'stored' | 'duplicate'> {
  const orgId = phone.org_id;
  const eventId = `message.received:${orgId}:${m.message_id}`;
  for (let attempt = 0; attempt < 8; attempt++) {
    const existing = (await db().entities.chat.get({ org_id: orgId, chat_id: m.chat_id }).go()).data;
    const unique_id = ulid(m.timestamp);
    const message = {
      org_id: orgId,
      chat_id: m.chat_id,
      unique_id,
      timestamp: m.timestamp,
      message_id: m.message_id,
      org_phone: phone.org_phone,
      phone_id: phone.phone_id,
      sender_phone: m.sender_phone,
      author: m.author,
      body: m.body,
      from_me: false,
      ack: 0,
      message_type: m.message_type,
      media: m.media,
      content: m.content,
      quoted_message: m.quoted_message,
      forwarded: m.forwarded,
      version: 0,
    };
    const isReaction = m.message_type === 'reaction';
    const base = existing ?? {
      org_id: orgId,
      chat_id: m.chat_id,
      chat_type: m.chat_type,
      chat_name: m.chat_type === 'user' ? m.author : undefined,
      org_phone: phone.org_phone,
      phone_id: phone.phone_id,
      latest_message_timestamp: 0,
      version: 0,
    };
    const next = isReaction
      ? base
      : applyMessageToChat(base as Chat & { version: number }, {
          latest: latestOf(message),
          org_phone: phone.org_phone,
          phone_id: phone.phone_id,
          countsAsUnread: true,
          fromCustomer: true,
        });
    if (m.chat_type === 'user' && m.author && !next.chat_name) next.chat_name = m.author;
    const members = { ...((existing?.members as Record<string, unknown>) ?? {}), [m.sender_phone]: { contact_name: m.author, contact_id: m.sender_phone } };
    const chatFields = {
      chat_name: next.chat_name ?? undefined,
      latest_message: next.latest_message,
      latest_message_timestamp: next.latest_message_timestamp || m.timestamp,
      latest_message_timestamp_map: next.latest_message_timestamp_map ?? {},
      unread_count: next.unread_count ?? {},
      message_unread_count: next.message_unread_count ?? 0,
      chat_org_phones: next.chat_org_phones ?? [phone.org_phone],
      last_customer_message_at: next.last_customer_message_at ?? {},
      members,
    };
    const oldVersion = (existing?.version as number | undefined) ?? 0;
    const res = await db()
      .transaction.write(({ waMessageRef, message: msg, chat, contact }) => [
        waMessageRef
          .create({ org_id: orgId, message_id: m.message_id, chat_id: m.chat_id, unique_id, timestamp: m.timestamp, expires_at: Math.floor(Date.now() / 1000) + REF_TTL_S })
          .commit(),
        msg.create(message).commit(),
        existing
          ? chat
              .update({ org_id: orgId, chat_id: m.chat_id })
              .set({ ...chatFields, version: oldVersion + 1 })
              .where(({ version }, { eq }) => eq(version, oldVersion))
              .commit()
          : chat.create({ ...(base as { chat_type: 'user' | 'group' }), ...chatFields, version: 1 } as never).commit(),
        contact
          .upsert({ org_id: orgId, contact_id: m.sender_phone, contact_name: m.author, phone: m.sender_phone })
          .commit(),
      ])
      .go();
    if (!res.canceled) {
      const chatItem = { ...base, ...chatFields, version: oldVersion + 1 };
      if (m.reaction) await applyReaction(orgId, m);
      await publish(
        'message.received',
        { org_id: orgId, chat: toChatWire(chatItem as Record<string, unknown>), message: toMessageWire(message) },
        { actor: `whatsapp:${phone.phone_id}`, id: eventId },
      );
      return 'stored';
    }
    const reasons = res.data as Array<{ rejected?: boolean; code?: string }>;
    if (reasons[0]?.rejected) {
      await republishDuplicate(orgId, m.message_id, eventId);
      return 'duplicate';
    }
    // the chat changed under us (or was created concurrently): read it again and retry
  }
  throw new Error(`could not store ${m.message_id}: chat ${m.chat_id} kept changing`);
}

async function republishDuplicate(orgId: string, wamid: string, eventId: string): Promise<void> {
  const ref = (await db().entities.waMessageRef.get({ org_id: orgId, message_id: wamid }).go()).data;
  if (!ref?.chat_id || !ref.unique_id || ref.timestamp == null) return;
  const [msg, chat] = await Promise.all([
    db().entities.message.get({ org_id: orgId, chat_id: ref.chat_id, timestamp: ref.timestamp, unique_id: ref.unique_id }).go(),
    db().entities.chat.get({ org_id: orgId, chat_id: ref.chat_id }).go(),
  ]);
  if (!msg.data || !chat.data || msg.data.from_me) return;
  await publish('message.received', { org_id: orgId, chat: toChatWire(chat.data), message: toMessageWire(msg.data) }, { actor: 'system', id: eventId });
}

/** Put (or remove, when emoji is null) the sender's reaction on the target message, if we have it. */
async function applyReaction(orgId: string, m: NormalizedMessage): Promise<void> {
  const target = m.reaction!;
  const ref = (await db().entities.waMessageRef.get({ org_id: orgId, message_id: target.target_message_id }).go()).data;
  if (!ref?.chat_id || !ref.unique_id || ref.timestamp == null) {
    log('info', 'reaction.target_unknown', { org_id: orgId, target: target.target_message_id });
    return;
  }
  const key = { org_id: orgId, chat_id: ref.chat_id, timestamp: ref.timestamp, unique_id: ref.unique_id };
  for (let attempt = 0; attempt < 8; attempt++) {
    const msg = (await db().entities.message.get(key).go()).data;
    if (!msg) return;
    const reactions = { ...((msg.reactions as Record<string, { reaction: string; timestamp: number }>) ?? {}) };
    const prev = reactions[m.sender_phone];
    if (prev && prev.timestamp > m.timestamp) return; // an older reaction event arrived late
    if (target.emoji) reactions[m.sender_phone] = { reaction: target.emoji, timestamp: m.timestamp };
    else delete reactions[m.sender_phone];
    try {
      const v = msg.version;
      await db().entities.message.patch(key).set({ reactions, version: v + 1 }).where(({ version }, { eq }) => eq(version, v)).go();
      await publish('message.updated', { org_id: orgId, chat_id: ref.chat_id, message: toMessageWire({ ...msg, reactions, version: v + 1 }) }, { actor: 'system' });
      return;
    } catch (e) {
      if (!String((e as Error).message).includes('conditional')) throw e;
    }
  }
}
