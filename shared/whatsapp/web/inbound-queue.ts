import { createHash } from 'node:crypto';
import { z } from 'zod';
import { db } from '../../db/service.ts';
import { groupMetadataStale } from '../../chat/group-metadata.rules.ts';
import { ingestWaWebEvents, type WaWebIngestSummary, type WaWebPhone } from './ingest-web.ts';
import { sendWaWebCommand } from './commands.ts';
import type { InboundEvent } from './types.ts';

/**
 * The durable inbound path of WhatsApp Web numbers (whatsapp-protocols.md §B.11 'the worker
 * normalizes events and puts them on SQS'): the session worker turns what a socket received into
 * §C events (connector.ts parseInbound) and puts them on the 'wa-web-inbound' queue
 * (events/catalog.ts COMMAND_QUEUES: SQS FIFO with a DLQ in AWS, one message group per number and
 * chat (issue 23 item 5); a file-backed queue honouring the groups locally);
 * the queue's consumer (functions/consumers/wa-web-inbound.ts) stores them with
 * `ingestWaWebEvents`, which is idempotent (a WhatsApp id is stored once, statuses apply
 * monotonically), so a redelivered record stores nothing twice. A table outage therefore only
 * delays messages: the record is retried and dead-lettered after maxReceiveCount, never dropped.
 *
 * Files and group admins need the live socket, which only the worker holds: after storing, the
 * consumer sends 'download-media' (one per media message, with what Baileys' download needs) and
 * 'group-metadata' (a group chat whose metadata is missing or older than an hour) commands to the
 * worker's 'wa-web-commands' FIFO queue. So a file is only downloaded for a message that is stored.
 *
 * Record body (JSON): `{ v: 1, phone: { org_id, phone_id, org_phone }, events }` where each event is
 * a §C InboundEvent with its `Date`s as epoch **ms** and no `raw`, except a media message's
 * `media_raw`: the Baileys `{ key, message }` as BufferJSON text (Buffers survive), thumbnails left out.
 */
export interface WaWebInboundBody {
  v: 1;
  phone: WaWebPhone;
  events: WireEvent[];
}

type Ev<K extends InboundEvent['kind']> = Extract<InboundEvent, { kind: K }>;
/** An InboundEvent as it travels: times in epoch ms, `raw` left out (`media_raw` for media messages). */
export type WireEvent =
  | (Omit<Ev<'message'>, 'sentAt' | 'raw'> & { sentAt: number; media_raw?: string })
  | (Omit<Ev<'status'>, 'at' | 'raw'> & { at: number })
  | (Omit<Ev<'reaction'>, 'at' | 'raw'> & { at: number })
  | (Omit<Ev<'edit'>, 'at' | 'raw'> & { at: number })
  | (Omit<Ev<'delete'>, 'at' | 'raw'> & { at: number });

/** Largest record body put on the queue (bytes; SQS takes 256 KiB and more): bigger batches are split, in order. */
export const MAX_BODY_BYTES = 200_000;

/** A JSON.stringify replacer (the worker passes Baileys' `BufferJSON.replacer`; this module never loads Baileys, so Lambda bundles stay without it). */
export type Replacer = (key: string, value: unknown) => unknown;

const hasMedia = (e: InboundEvent): e is Ev<'message'> => e.kind === 'message' && 'media' in e.content;

/**
 * What Baileys' `downloadMediaMessage` needs of a received WAMessage (its `key` and `message`), as
 * BufferJSON text; `jpegThumbnail`s (a few KB each, not needed to download) are left out.
 */
export function mediaRawOf(raw: unknown, replacer: Replacer): string | undefined {
  const w = raw as { key?: unknown; message?: unknown } | null;
  if (!w || typeof w !== 'object' || !w.key || !w.message) return undefined;
  return JSON.stringify({ key: w.key, message: w.message }, (k, v) => (k === 'jpegThumbnail' ? undefined : replacer(k, v)));
}

/** One event on the wire (see WireEvent). */
export function toWireEvent(e: Exclude<InboundEvent, { kind: 'session' }>, replacer: Replacer): WireEvent {
  if (e.kind === 'message') {
    const { raw, sentAt, ...rest } = e;
    const media_raw = hasMedia(e) ? mediaRawOf(raw, replacer) : undefined;
    return { ...rest, sentAt: sentAt.getTime(), ...(media_raw ? { media_raw } : {}) };
  }
  const { raw: _r, at, ...rest } = e;
  return { ...rest, at: at.getTime() } as WireEvent;
}

/** One wa-web-inbound record: its body and its FIFO ids. */
export interface QueueRecord {
  body: string;
  /** SQS MessageGroupId `<phone_id>:<chat>` (hashed past 128 characters): one chat's records in order */
  groupId: string;
  /** SQS MessageDeduplicationId: the body's SHA-256 */
  dedupeId: string;
}

/**
 * The ordering key of a number's chat on the FIFO wa-web-inbound queue (issue 23 item 5): one
 * chat's events are stored one record at a time, in the order the socket received them, so a hot
 * group never races itself for the chat row, while other chats go on in parallel. Pure.
 */
export function inboundGroupId(phoneId: string, chatId: string): string {
  const key = `${phoneId}:${chatId}`;
  return key.length <= 128 ? key : createHash('sha256').update(key).digest('hex');
}

/**
 * The queue records of one socket event's §C events: one per chat (in the order the chats first
 * appear; each chat's events in order), split further where a record would pass MAX_BODY_BYTES
 * (an event bigger than that alone still goes, alone).
 */
export function toQueueRecords(phone: WaWebPhone, events: InboundEvent[], replacer: Replacer): QueueRecord[] {
  const byChat = new Map<string, WireEvent[]>();
  for (const e of events) {
    if (e.kind === 'session') continue;
    const chat = e.chat?.chatId ?? '-';
    byChat.set(chat, [...(byChat.get(chat) ?? []), toWireEvent(e, replacer)]);
  }
  const records: QueueRecord[] = [];
  for (const [chat, wire] of byChat) {
    let chunk: WireEvent[] = [];
    let size = 0;
    const flush = () => {
      if (!chunk.length) return;
      const body = JSON.stringify({ v: 1, phone, events: chunk } satisfies WaWebInboundBody);
      records.push({ body, groupId: inboundGroupId(phone.phone_id, chat), dedupeId: createHash('sha256').update(body).digest('hex') });
      chunk = [];
      size = 0;
    };
    for (const w of wire) {
      const n = Buffer.byteLength(JSON.stringify(w));
      if (chunk.length && size + n > MAX_BODY_BYTES) flush();
      chunk.push(w);
      size += n;
    }
    flush();
  }
  return records;
}

/** The record bodies only (see toQueueRecords). */
export const toQueueBodies = (phone: WaWebPhone, events: InboundEvent[], replacer: Replacer): string[] => toQueueRecords(phone, events, replacer).map((r) => r.body);

const Phone = z.object({ org_id: z.string().min(1), phone_id: z.string().min(1), org_phone: z.string() });
const Chat = z.object({ chatId: z.string().min(1), kind: z.enum(['direct', 'group']), altIds: z.array(z.string()).optional() }).passthrough();
const Body = z.object({
  v: z.literal(1),
  phone: Phone,
  events: z.array(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('message'), chat: Chat, providerMessageId: z.string().min(1), sentAt: z.number(), content: z.object({ type: z.string() }).passthrough() }).passthrough(),
      z.object({ kind: z.literal('status'), providerMessageId: z.string().min(1), at: z.number() }).passthrough(),
      z.object({ kind: z.literal('reaction'), chat: Chat, targetProviderMessageId: z.string().min(1), at: z.number() }).passthrough(),
      z.object({ kind: z.literal('edit'), chat: Chat, providerMessageId: z.string().min(1), at: z.number() }).passthrough(),
      z.object({ kind: z.literal('delete'), chat: Chat, providerMessageId: z.string().min(1), at: z.number() }).passthrough(),
    ]),
  ),
});

/**
 * A record body back into the number and its §C events (`Date`s again; a media message's `raw` is
 * its `media_raw` text).
 * @throws Error when the body is not one the worker writes (not JSON, or a field missing)
 */
export function fromQueueBody(body: string): { phone: WaWebPhone; events: InboundEvent[] } {
  const parsed = Body.safeParse(JSON.parse(body));
  if (!parsed.success) throw new Error(`not a wa-web-inbound record: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const events = (parsed.data.events as unknown as WireEvent[]).map((w): InboundEvent => {
    if (w.kind === 'message') {
      const { media_raw, sentAt, ...rest } = w;
      return { ...rest, sentAt: new Date(sentAt), raw: media_raw };
    }
    return { ...w, at: new Date(w.at), raw: undefined } as InboundEvent;
  });
  return { phone: parsed.data.phone, events };
}

/**
 * Store the events of several records of one number together (one `ingestWaWebEvents` call: one
 * chat read and shared transactions per chat, so a hot group's backlog of records costs about what
 * one record does), then ask the number's worker for what needs the socket: the files of media
 * messages, and the metadata of group chats when missing or older than an hour.
 * An edit or delete of a message not stored yet is parked until it arrives (shared/inbox/parked.ts).
 * @param records parsed record bodies (fromQueueBody), all of one number, in queue order
 * @throws infrastructure errors (the queue redelivers; everything here is idempotent)
 */
export async function processWaWebInbound(records: Array<{ phone: WaWebPhone; events: InboundEvent[] }>, now = Date.now()): Promise<WaWebIngestSummary & { downloads: number; groups: number }> {
  const phone = records[0]!.phone;
  if (records.some((r) => r.phone.phone_id !== phone.phone_id)) throw new Error('processWaWebInbound: records of several numbers');
  const events = records.flatMap((r) => r.events);
  const summary = await ingestWaWebEvents(phone, events);
  let downloads = 0;
  for (const e of events) {
    if (e.kind !== 'message' || !hasMedia(e) || typeof e.raw !== 'string') continue;
    // a message stored before keeps its file: the worker skips one already stored (storeWaWebMedia)
    await sendWaWebCommand({ kind: 'download-media', org_id: phone.org_id, phone_id: phone.phone_id, chat_id: e.chat.chatId, message_id: e.providerMessageId, raw: e.raw });
    downloads++;
  }
  let groups = 0;
  const groupChats = [...new Set(events.filter((e) => e.kind === 'message' && e.chat.kind === 'group').map((e) => (e as Ev<'message'>).chat.chatId))];
  for (const chatId of groupChats) {
    const chat = (await db().entities.chat.get({ org_id: phone.org_id, chat_id: chatId }).go({ attributes: ['group_metadata'] as never })).data as { group_metadata?: { fetched_at: number } } | null;
    if (!chat || !groupMetadataStale(chat.group_metadata, now)) continue;
    await sendWaWebCommand({ kind: 'group-metadata', org_id: phone.org_id, phone_id: phone.phone_id, chat_id: chatId });
    groups++;
  }
  return { ...summary, downloads, groups };
}
