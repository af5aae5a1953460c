import { ulid } from 'ulid';
import { db } from '../db/service.ts';
import { transactWithEvents, type TxItem, type TxWithEvents } from '../db/transaction.ts';
import { outboxRowCount } from '../../events/outbox.ts';
import { normalizeWebhook, type NormalizedItem, type NormalizedMessage } from '../whatsapp/cloud/normalize.ts';
import { applyMessageToChat } from '../chat/chat.rules.ts';
import { isClosed, isSnoozed, mergeDeltas } from '../chat/chat-state.rules.ts';
import { chatWriteItems, counterItems, type ChatRow as ChatWriteRow } from '../chat/chat-write.ts';
import { notifyChatBack } from '../chat/chat-notify.ts';
import { toChatWire, toMessageWire, latestOf } from './wire.ts';
import { applyStatuses, type StatusRecord } from './statuses.ts';
import { replayParked } from './parked.ts';
import { reconcileSentStatus } from './send.ts';
import { applyInboundReaction, applyReactionStatuses } from '../message/reactions.ts';
import { findPhoneByExternalId } from '../phone/phone.ts';
import { log } from '../log.ts';
import { METRIC, recordMetric } from '../metrics.ts';
import type { Chat } from '../chat/chat.schemas.ts';
import { RETRY, retryOnConflict } from '../db/retry.ts';
import { queueContactSightings, type ContactSighting } from '../contact/contact.ts';
import { lastSeenDue } from '../contact/contact.rules.ts';
import { resolveInboundCustomers, type IdentityConflict } from '../contact/identity.ts';
import { mergeIdentity, type CustomerIdentity } from '../contact/identity.rules.ts';
import { mergeSamePerson } from '../contact/merge.ts';

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
  // one clock read: the id's time is received_at, so one rejection is found by its id (shared/whatsapp/webhook-rejection.ts)
  const now = Date.now();
  await db()
    .entities.webhookRejection.create({
      rejection_id: ulid(now),
      org_id: orgId ?? 'unknown',
      reason,
      raw_body: raw.slice(0, 350_000),
      received_at: now,
      expires_at: Math.floor(now / 1000) + 90 * 24 * 3600,
    })
    .go();
  // counted once kept (a failed write throws, and the body is retried): the alarm on it says where to look
  recordMetric(METRIC.webhookRejections);
  log('warn', 'webhook.rejected', { org_id: orgId, reason, bytes: Buffer.byteLength(raw, 'utf8') });
}

type Parsed = { items: NormalizedItem[] } | { invalid: string };

function parseBody(rawBody: string): Parsed {
  try {
    return { items: normalizeWebhook(JSON.parse(rawBody)) };
  } catch {
    return { invalid: rawBody };
  }
}

/** Ingest one raw webhook body (the exact string Meta signed). */
export async function ingestWebhookBody(rawBody: string): Promise<IngestSummary> {
  return (await ingestWebhookBatch([rawBody]))[0] as IngestSummary;
}

/**
 * Ingest a batch of raw webhook bodies (one SQS batch). Messages of all bodies are stored
 * together through `storeInboundMessages`; everything else item by item. If the shared fast path
 * fails, every body falls back to the one-by-one path (idempotent, so nothing is stored twice).
 * @returns per body, in order: its summary, or the error that should make the queue retry it
 */
export async function ingestWebhookBatch(rawBodies: string[]): Promise<Array<IngestSummary | Error>> {
  const parsed = rawBodies.map(parseBody);
  const done = new Map<string, 'stored' | 'duplicate'>();
  // who each customer is (issue 41): resolved once for the batch, before anything is stored, so
  // that both the fast path and the one-by-one path store into the person's one chat
  const byPhone = new Map<string, { phone: PhoneRow; msgs: NormalizedMessage[] }>();
  const conflicts: Array<{ orgId: string; conflict: IdentityConflict }> = [];
  try {
    for (const p of parsed) {
      if (!('items' in p)) continue;
      for (const it of p.items) {
        if (it.kind !== 'message') continue;
        const phone = await findPhoneByExternalId(it.phone_number_id);
        if (!phone) continue;
        const g = byPhone.get(phone.phone_id) ?? { phone, msgs: [] };
        g.msgs.push(it.message);
        byPhone.set(phone.phone_id, g);
      }
    }
    for (const { phone, msgs } of byPhone.values()) for (const conflict of await resolveInboundCustomers(phone.org_id, phone.waba_id, msgs)) conflicts.push({ orgId: phone.org_id, conflict });
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    log('warn', 'webhook.identity_failed', { error: err.message });
    return rawBodies.map(() => err);
  }
  try {
    for (const { phone, msgs } of byPhone.values()) for (const [id, r] of await storeInboundMessages(phone, msgs)) done.set(id, r);
  } catch (e) {
    log('warn', 'webhook.batch_fallback', { error: String((e as Error).message) });
    done.clear();
  }
  const results = await Promise.all(
    parsed.map(async (p): Promise<IngestSummary | Error> => {
      const summary: IngestSummary = { stored: 0, duplicates: 0, statuses: 0, rejected: 0, ignored: 0 };
      try {
        if ('invalid' in p) {
          await keepRejection(undefined, 'body is not valid JSON', p.invalid);
          summary.rejected++;
          return summary;
        }
        for (const item of p.items) {
          const fast = item.kind === 'message' ? done.get(item.message.message_id) : undefined;
          if (fast === 'stored') summary.stored++;
          else if (fast === 'duplicate') summary.duplicates++;
          else await ingestItem(item, summary);
        }
        return summary;
      } catch (e) {
        return e instanceof Error ? e : new Error(String(e));
      }
    }),
  );
  // one person seen first by number and then by BSUID alone (or the reverse): one contact, with the merge's undo
  for (const { orgId, conflict } of conflicts) await mergeSamePerson(orgId, conflict);
  return results;
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
    await recordStatus(phone.org_id, item.message_id, item.status, { timestamp: item.timestamp, errors: item.errors }, item.biz_opaque_callback_data);
    summary.statuses++;
    return;
  }
  const result = await storeInboundMessage(phone, item.message);
  if (result === 'duplicate') summary.duplicates++;
  else summary.stored++;
}

/**
 * Record a status on the wamid's ref item (created if the message is not known yet: a status
 * that arrives first waits there) and, when the message is known, apply it. A status for a wamid
 * not recorded yet whose `callbackData` (Meta's biz_opaque_callback_data) names one of our outbound
 * messages without a wamid reconciles a send that crashed after WhatsApp took it (issue 23 item 4).
 */
export async function recordStatus(orgId: string, wamid: string, status: string, rec: StatusRecord, callbackData?: string): Promise<void> {
  const updated = await db()
    .entities.waMessageRef.update({ org_id: orgId, message_id: wamid })
    .set({ [`status_${status}`]: rec, expires_at: Math.floor(Date.now() / 1000) + REF_TTL_S } as never)
    .go({ response: 'all_new' });
  const ref = updated.data as Record<string, unknown>;
  if (ref.reaction_of) await applyReactionStatuses(orgId, ref); // one of our reactions (its ack)
  else if (ref.chat_id) await applyStatuses(orgId, ref);
  else if (callbackData) await reconcileSentStatus(orgId, wamid, callbackData);
}

type PhoneRow = { org_id: string; phone_id: string; org_phone: string; waba_id?: string };
type ChatRow = Record<string, unknown> & { version?: number; members?: unknown };

/** The message item stored for an inbound message. `unique_id` is a ULID of the WhatsApp timestamp. */
function messageItem(phone: PhoneRow, m: NormalizedMessage) {
  return {
    org_id: phone.org_id,
    chat_id: m.chat_id,
    unique_id: ulid(m.timestamp),
    timestamp: m.timestamp,
    message_id: m.message_id,
    org_phone: phone.org_phone,
    phone_id: phone.phone_id,
    sender_phone: m.sender_phone || undefined,
    author: m.author,
    body: m.body,
    from_me: m.from_me === true,
    ack: 0,
    message_type: m.message_type,
    media: m.media,
    content: m.content,
    quoted_message: m.quoted_message,
    forwarded: m.forwarded,
    version: 0,
  };
}
type MessageItem = ReturnType<typeof messageItem>;

/**
 * How a chat row changes when these messages (all of one chat) are stored: pure, from the row
 * as read (`existing`, undefined for a new chat). Reactions do not touch the row.
 */
function planChat(phone: PhoneRow, existing: ChatRow | undefined, msgs: Array<{ m: NormalizedMessage; item: MessageItem }>) {
  const first = msgs[0].m;
  const base = (existing ?? {
    org_id: phone.org_id,
    chat_id: first.chat_id,
    chat_type: first.chat_type,
    chat_name: first.chat_type === 'user' ? first.author : undefined,
    org_phone: phone.org_phone,
    phone_id: phone.phone_id,
    latest_message_timestamp: 0,
    version: 0,
  }) as Chat & { version: number };
  let next = base;
  const before = (existing?.members as Record<string, { contact_name?: string }> | undefined) ?? {};
  const members: Record<string, unknown> = { ...before };
  /**
   * senders whose contact must be touched after the write (issue 15): new to this chat, renamed,
   * first message through this org number, or last seen more than LAST_SEEN_STEP_MS ago
   */
  const contacts = new Map<string, ContactSighting>();
  const prevSeen = (existing?.last_customer_message_at as Record<string, number> | undefined) ?? {};
  let lastCustomerAt = Math.max(0, ...Object.values(prevSeen));
  const newNumber = !!existing && !((existing.chat_org_phones as string[] | undefined) ?? []).includes(phone.org_phone);
  let identity = existing?.identity as CustomerIdentity | undefined;
  let identityChanged = false;
  for (const { m, item } of msgs) {
    // the number's own messages sent from the phone (WhatsApp Web echoes) are ours: no contact, not
    // unread; WhatsApp's system lines (a number or id change) are not the customer writing either
    const customer = !m.from_me && m.message_type !== 'system';
    // the sender as the chat's members and contacts know it: the number, else the resolved contact (a username user)
    const senderKey = m.sender_phone || m.contact_id || '';
    const change = m.chat_type === 'user' ? m.identity_change : undefined;
    // what the message tells of the customer: its identifiers, moved forward by an announced change
    const seen = m.chat_type === 'user' && m.sender_identity ? { ...m.sender_identity, ...(change ? (change.kind === 'phone' ? { wa_id: change.to } : { user_id: change.to }) : {}) } : undefined;
    if (seen) {
      const merged = mergeIdentity(identity, seen);
      if (merged.changed) {
        identity = merged.identity;
        identityChanged = true;
      }
    }
    if ((customer || change) && senderKey && m.message_type !== 'reaction' && (!before[senderKey] || (m.author && before[senderKey].contact_name !== m.author) || newNumber || identityChanged || lastSeenDue(lastCustomerAt, m.timestamp))) {
      contacts.set(senderKey, {
        wa_id: senderKey,
        ...(m.contact_id ? { contact_id: m.contact_id } : {}),
        ...(seen ? { identity: { ...seen, ...(identity?.wa_id && !seen.wa_id ? { wa_id: identity.wa_id } : {}) } } : {}),
        name: m.author,
        at: m.timestamp,
        phone_id: phone.phone_id,
        ...(m.sender_lid ? { lid: m.sender_lid } : {}),
      });
    }
    if (customer) lastCustomerAt = Math.max(lastCustomerAt, m.timestamp);
    if (m.message_type !== 'reaction') {
      next = applyMessageToChat(next, { latest: latestOf(item), org_phone: phone.org_phone, phone_id: phone.phone_id, countsAsUnread: customer, fromCustomer: customer });
    }
    if (m.chat_type === 'user' && m.author && !next.chat_name) next = { ...next, chat_name: m.author };
    if (customer && senderKey) members[senderKey] = { contact_name: m.author, contact_id: m.contact_id ?? senderKey };
  }
  const now = Date.now();
  // a customer message ends a snooze (issue 4: the chat comes back when the customer writes again)
  const written = msgs.some(({ m }) => m.message_type !== 'reaction' && !m.from_me);
  const snoozed = isSnoozed(base as never, now) && written;
  // a closed chat reopens on a new customer message (spec §4), also one stamped in the close's second
  const reopen = written && isClosed(base as never);
  const row = {
    ...base,
    chat_name: next.chat_name ?? undefined,
    latest_message: next.latest_message,
    latest_message_timestamp: next.latest_message_timestamp || first.timestamp,
    latest_message_timestamp_map: next.latest_message_timestamp_map ?? {},
    unread_count: next.unread_count ?? {},
    message_unread_count: next.message_unread_count ?? 0,
    chat_org_phones: next.chat_org_phones ?? [phone.org_phone],
    last_customer_message_at: next.last_customer_message_at ?? {},
    members,
    ...(identityChanged ? { identity } : {}),
    ...(snoozed ? { snooze_metadata: undefined } : {}),
    ...(reopen ? { closed_at: undefined } : {}),
  } as unknown as ChatWriteRow;
  return { before: (existing ?? null) as ChatWriteRow | null, row, now, woke: snoozed, contacts };
}

type Plan = ReturnType<typeof planChat>;
type TxEntities = Parameters<Parameters<ReturnType<typeof db>['transaction']['write']>[0]>[0];

/**
 * Transaction items that store `msgs` of one chat and move its row as planned (chatWriteItems:
 * the row, its label rows), and the counter changes to add once per transaction.
 * Sets `plan.row` to the row as stored.
 */
function txItems(e: TxEntities, phone: PhoneRow, plan: Plan, msgs: Array<{ m: NormalizedMessage; item: MessageItem }>) {
  const orgId = phone.org_id;
  const expires_at = Math.floor(Date.now() / 1000) + REF_TTL_S;
  const w = chatWriteItems(e, plan.before, plan.row, plan.now);
  plan.row = w.row;
  const items = [
    ...msgs.flatMap(({ m, item }) => [
      e.waMessageRef.create({ org_id: orgId, message_id: m.message_id, chat_id: m.chat_id, unique_id: item.unique_id, timestamp: m.timestamp, expires_at, ...(m.reaction ? { reaction_pending: true } : {}) }).commit(),
      e.message.create(item).commit(),
    ]),
    ...w.items,
  ];
  return { items, deltas: w.deltas };
}

/**
 * Items of chats stored together, with their counters merged (one operation per counter item),
 * and each message's `message.received` (written in the same transaction: the outbox).
 */
function groupTx(e: TxEntities, phone: PhoneRow, parts: Array<{ plan: Plan; msgs: Array<{ m: NormalizedMessage; item: MessageItem }> }>): TxWithEvents {
  const deltas: Record<string, number> = {};
  const items = parts.flatMap(({ plan, msgs }) => {
    const t = txItems(e, phone, plan, msgs);
    mergeDeltas(deltas, t.deltas);
    return t.items;
  });
  return {
    items: [...items, ...counterItems(e, phone.org_id, deltas)] as TxItem[],
    events: parts.flatMap(({ plan, msgs }) => msgs.map(({ item }) => receivedEvent(phone, plan.row, item))),
  };
}

/** A snoozed chat the customer wrote to: tell its assignee it is back (issue 4 part 3). */
async function notifyWoken(plans: Plan[]): Promise<void> {
  for (const p of plans) {
    if (!p.woke || !p.row.assigned_to) continue;
    await notifyChatBack(p.row, 'message').catch((err) => log('warn', 'snooze.notify_failed', { chat_id: p.row.chat_id, error: String(err) }));
  }
}

const receivedEvent = (phone: PhoneRow, chat: Record<string, unknown>, item: MessageItem) => ({
  name: 'message.received' as const,
  properties: { org_id: phone.org_id, chat: toChatWire(chat), message: toMessageWire(item) },
  actor: `whatsapp:${phone.phone_id}`,
  id: `message.received:${phone.org_id}:${item.message_id}`,
});

/**
 * Store one inbound message with its dedupe ref, the chat row update and the contact, in one
 * transaction with its `message.received` (the outbox: an event cannot be lost to a crash after
 * the write, so a duplicate publishes nothing); retried on a concurrent chat update.
 * @returns 'stored' or 'duplicate'
 */
export async function storeInboundMessage(phone: PhoneRow, m: NormalizedMessage): Promise<'stored' | 'duplicate'> {
  const orgId = phone.org_id;
  return retryOnConflict(`chat ${m.chat_id} (storing ${m.message_id})`, async () => {
    const existing = (await db().entities.chat.get({ org_id: orgId, chat_id: m.chat_id }).go()).data as ChatRow | null;
    const msgs = [{ m, item: messageItem(phone, m) }];
    const plan = planChat(phone, existing ?? undefined, msgs);
    const res = await transactWithEvents((e) => groupTx(e, phone, [{ plan, msgs }]));
    if (!res.canceled) {
      if (m.reaction) await applyReaction(orgId, m);
      else await replayParked(orgId, [m.message_id]);
      await notifyWoken([plan]);
      await queueContactSightings(orgId, [...plan.contacts.values()]);
      return 'stored' as const;
    }
    const reasons = res.data as Array<{ rejected?: boolean }>;
    if (reasons[0]?.rejected) {
      // a redelivery: what was parked for it may not have been replayed before a crash, and a
      // reaction may have been stored but not yet decided (its ref's reaction_pending; applying a
      // parked one again only parks it again)
      if (!m.reaction) await replayParked(orgId, [m.message_id]);
      else if ((await db().entities.waMessageRef.get({ org_id: orgId, message_id: m.message_id }).go({ attributes: ['reaction_pending'] })).data?.reaction_pending) await applyReaction(orgId, m);
      return 'duplicate' as const;
    }
    // the chat changed under us (or was created concurrently): read it again and retry
    return RETRY;
  });
}

/** DynamoDB's limit of items per transaction. */
const TX_MAX_ITEMS = 100;
/** Transaction items one inbound message takes: wamid ref and message (its event shares the transaction's outbox row; contacts are written off this path: queueContactSightings). */
const ITEMS_PER_MESSAGE = 2;
/**
 * Outbox rows a chat's chunk is cut to leave room for (events/outbox.ts: one row holds ~300 KB of
 * events). A message's event is at most ~35 KB (a 4,096-character body of up to 4 UTF-8 bytes each,
 * twice: the message and the chat's latest message), so a chunk of ~40 takes at most ~6 rows.
 */
const OUTBOX_ROWS_RESERVE = 8;
/**
 * Event bytes a chunk may carry: next-fit leaves each full 300 KB outbox row more than half full
 * while every event is under 150 KB, so (OUTBOX_ROWS_RESERVE - 1) × 150 KB always fits the reserve.
 */
const CHUNK_EVENT_BYTES = (OUTBOX_ROWS_RESERVE - 1) * 150_000;
/** Upper bound of a message's event bytes (UTF-8): the message twice (itself, the chat's latest message), the chat and metadata. */
const eventBytesBound = (item: MessageItem): number => 2 * Buffer.byteLength(JSON.stringify(item)) + 4_000;
/** An event's bytes in its outbox row beyond its properties' JSON (metadata, row overhead), over-counted. */
const EVENT_META_BYTES = 1_200;

type Chunk = { chatId: string; msgs: Array<{ m: NormalizedMessage; item: MessageItem }> };

/**
 * Build one transaction from the front of `queue`: chunks are planned from the rows as stored and
 * added while the items, outbox rows and merged counters stay within TX_MAX_ITEMS (counted from
 * what is built, not estimated). A chunk is skipped, with its chat's later chunks, when its chat is
 * already in the transaction (one item, one operation) or it does not fit; the first chunk always
 * goes (its size was bounded when it was cut). `taken` receives what went in, with its plan.
 */
function packChunks(e: TxEntities, phone: PhoneRow, queue: Chunk[], rows: Map<string, ChatRow>, taken: Array<Chunk & { plan: Plan }>): TxWithEvents {
  const deltas: Record<string, number> = {};
  const items: TxItem[] = [];
  const events: TxWithEvents['events'] = [];
  const eventSizes: number[] = [];
  const held = new Set<string>();
  for (const c of queue) {
    if (held.has(c.chatId)) continue;
    const plan = planChat(phone, rows.get(c.chatId), c.msgs);
    const t = txItems(e, phone, plan, c.msgs);
    const merged = mergeDeltas({ ...deltas }, t.deltas);
    const added = c.msgs.map(({ item }) => receivedEvent(phone, plan.row, item));
    const addedSizes = added.map((ev) => Buffer.byteLength(JSON.stringify(ev.properties)) + EVENT_META_BYTES);
    // the transaction's outbox rows, counted from (over-estimated) event sizes as events/outbox.ts packs them
    const size = items.length + t.items.length + outboxRowCount([...eventSizes, ...addedSizes]) + Object.keys(merged).length;
    if (taken.length && size > TX_MAX_ITEMS) {
      held.add(c.chatId);
      continue;
    }
    held.add(c.chatId);
    items.push(...t.items);
    Object.assign(deltas, merged);
    for (const k of Object.keys(deltas)) if (!(k in merged)) delete deltas[k];
    events.push(...added);
    eventSizes.push(...addedSizes);
    taken.push({ ...c, plan });
  }
  return { items: [...items, ...counterItems(e, phone.org_id, deltas)] as TxItem[], events };
}

/**
 * Fast path for a batch of inbound messages of one phone (e.g. one SQS batch of webhooks):
 * one BatchGet of their chats, then transactions of up to 100 items covering several chats each
 * (a DynamoDB Local or DynamoDB transaction costs about the same for 2 items as for 40), packed
 * by their real item count (packChunks: chats of one number share most counter rows, so a
 * transaction holds about 20 one-message chats, not the 6 a per-chat worst case allowed).
 * All-or-nothing per transaction; if one is cancelled (a duplicate wamid, a concurrent chat
 * update) its messages, and their chats' later ones, take the one-by-one path, which sorts out
 * duplicates and conflicts. Contacts and parked changes are seen to once, after the batch.
 * Reactions always take the one-by-one path (they also update their target).
 * @returns per message: 'stored' | 'duplicate'
 */
export async function storeInboundMessages(phone: PhoneRow, all: NormalizedMessage[]): Promise<Map<string, 'stored' | 'duplicate'>> {
  const out = new Map<string, 'stored' | 'duplicate'>();
  const seen = new Set<string>();
  const batchable: NormalizedMessage[] = [];
  const single: NormalizedMessage[] = [];
  for (const m of all) {
    if (seen.has(m.message_id)) continue;
    seen.add(m.message_id);
    (m.reaction ? single : batchable).push(m);
  }
  const byChat = new Map<string, Array<{ m: NormalizedMessage; item: MessageItem }>>();
  for (const m of batchable.sort((a, b) => a.timestamp - b.timestamp)) {
    const list = byChat.get(m.chat_id) ?? [];
    list.push({ m, item: messageItem(phone, m) });
    byChat.set(m.chat_id, list);
  }
  if (byChat.size) {
    const keys = [...byChat.keys()].map((chat_id) => ({ org_id: phone.org_id, chat_id }));
    const got = await db().entities.chat.get(keys).go();
    const rows = new Map((got.data as ChatRow[]).map((c) => [c.chat_id as string, c]));
    for (const k of got.unprocessed ?? []) rows.delete((k as { chat_id: string }).chat_id);
    // A chat with many messages is cut into chunks small enough for one transaction whatever its
    // row costs: ref + message per message (ITEMS_PER_MESSAGE) and room for the outbox rows
    // (OUTBOX_ROWS_RESERVE), plus its
    // row, two label rows per label (old key deleted, new key put), two per custom property value,
    // its group row, and at most one counter per bucket it leaves or enters (chatBuckets: 4 + 1
    // unread + labels, twice).
    const overhead = (chatId: string) => {
      const row = rows.get(chatId);
      const labels = ((row?.label_ids as string[] | undefined) ?? []).length;
      const props = Object.keys((row?.custom_properties as Record<string, unknown> | undefined) ?? {}).length;
      const group = (row?.chat_type ?? (chatId.endsWith('@g.us') ? 'group' : 'user')) === 'group' ? 1 : 0;
      return 1 + 2 * labels + 2 * props + group + 2 * (5 + labels);
    };
    let queue: Chunk[] = [];
    for (const [chatId, msgs] of byChat) {
      const perChunk = Math.max(1, Math.floor((TX_MAX_ITEMS - overhead(chatId) - OUTBOX_ROWS_RESERVE) / ITEMS_PER_MESSAGE));
      // also cut by the events' bytes, so that even long messages fit the reserved outbox rows
      let chunk: Chunk['msgs'] = [];
      let bytes = 0;
      for (const x of msgs) {
        const size = eventBytesBound(x.item);
        if (chunk.length && (chunk.length >= perChunk || bytes + size > CHUNK_EVENT_BYTES)) {
          queue.push({ chatId, msgs: chunk });
          chunk = [];
          bytes = 0;
        }
        chunk.push(x);
        bytes += size;
      }
      if (chunk.length) queue.push({ chatId, msgs: chunk });
    }
    const stored: Plan[] = [];
    const storedIds: string[] = [];
    while (queue.length) {
      // one round: as many chunks as fit in one transaction, counted exactly as they are built
      const taken: Array<Chunk & { plan: Plan }> = [];
      const res = await transactWithEvents((e) => packChunks(e, phone, queue, rows, taken));
      const went = new Set(taken.map((t) => t.msgs));
      queue = queue.filter((c) => !went.has(c.msgs));
      if (res.canceled) {
        // one by one (duplicates, conflicts), with their chats' later chunks behind them, in order
        const failed = new Set(taken.map((t) => t.chatId));
        single.push(...taken.flatMap((t) => t.msgs.map((x) => x.m)), ...queue.filter((c) => failed.has(c.chatId)).flatMap((c) => c.msgs.map((x) => x.m)));
        queue = queue.filter((c) => !failed.has(c.chatId));
        continue;
      }
      for (const t of taken) {
        rows.set(t.chatId, t.plan.row as unknown as ChatRow);
        stored.push(t.plan);
        for (const { m } of t.msgs) {
          out.set(m.message_id, 'stored');
          storedIds.push(m.message_id);
        }
      }
    }
    // after the batch's transactions: snooze wake-ups, the senders' contacts (one record on their queue), and
    // the reactions, edits and deletes that arrived before these messages (one BatchGet)
    await notifyWoken(stored);
    await queueContactSightings(phone.org_id, stored.flatMap((p) => [...p.contacts.values()]));
    await replayParked(phone.org_id, storedIds);
  }
  for (const m of single.sort((a, b) => a.timestamp - b.timestamp)) out.set(m.message_id, await storeInboundMessage(phone, m));
  return out;
}

/**
 * Put (or remove, when emoji is null) the sender's reaction on the target message, if we have it in
 * the chat the reaction came from: the message's `reactions` map and the sender's Reaction row in one transaction (shared/message/reactions.ts).
 */
async function applyReaction(orgId: string, m: NormalizedMessage): Promise<void> {
  const target = m.reaction!;
  await applyInboundReaction(orgId, { chat_id: m.chat_id, target_message_id: target.target_message_id, emoji: target.emoji, sender_phone: m.sender_phone, timestamp: m.timestamp, reaction_id: m.message_id, sender_name: m.author ?? null });
}
