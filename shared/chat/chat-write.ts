import type { EntityItem } from 'electrodb';
import type { ChatEntity, ChatGroupLinkEntity } from './chat.entity.ts';
import { db } from '../db/service.ts';
import { commitWithEvents, type TxEntities, type TxItem } from '../db/transaction.ts';
import type { PublishInput } from '../../events/publish.ts';
import { assigneeKey, bucketDeltas, chatBuckets, inboxState, mergeDeltas, unreadKey, type InboxState } from './chat-state.rules.ts';
import { toChatWire } from '../inbox/wire.ts';
import { RETRY, retryOnConflict } from '../db/retry.ts';
import { propertyLinksOf } from '../property/property.rules.ts';

/**
 * The one way a chat row is written when anything its list filters read may change (latest
 * message, unread, assignee, labels, folder, phone): the row itself (optimistic `version` check),
 * its label, property and group index rows and the filter counters (ADD), in one transaction.
 * ACCESS_PATTERNS.md patterns 8, 33-40. Times are epoch **ms**.
 */

export type ChatRow = EntityItem<typeof ChatEntity>;

/** The row with its derived index keys (inbox_state, assignee_key, unread_key) computed at `now`. */
export function withIndexKeys<C extends ChatRow>(row: C, now: number): C {
  return {
    ...row,
    inbox_state: inboxState({ ...row, snooze_metadata: row.snooze_metadata as { snooze_until?: number } | undefined }, now),
    assignee_key: assigneeKey(row.assigned_to),
    unread_key: unreadKey(row),
  };
}

/** The counter buckets a stored row is counted in (its stored folder: what the counters hold). */
function bucketsOf(row: ChatRow | null, now: number): string[] | null {
  if (!row) return null;
  const state = (row.inbox_state as InboxState | undefined) ?? inboxState(row as never, now);
  return chatBuckets({ ...row, snooze_metadata: row.snooze_metadata as never, chat_type: row.chat_type }, state);
}

/**
 * Transaction items for one chat write, and the counter changes it implies (merge them over all
 * chats of a transaction with mergeDeltas, then counterItems: one operation per counter item).
 * @param before the stored row (null: the chat is new)
 * @param after the new row; its index keys are recomputed here and `version` set to before+1
 * @returns items (chat put/create + label, property and group rows), deltas (bucket -> change), row (what is stored)
 */
export function chatWriteItems(e: TxEntities, before: ChatRow | null, after: ChatRow, now: number): { items: TxItem[]; deltas: Record<string, number>; row: ChatRow } {
  const v = before?.version ?? 0;
  const row = withIndexKeys({ ...after, version: v + 1 }, now);
  const items: TxItem[] = [];
  if (before) items.push(e.chat.put(row).where(({ version }, { eq }) => eq(version, v)).commit() as TxItem);
  else items.push(e.chat.create(row).commit() as TxItem);
  const keyOf = (r: ChatRow, label: string) => `${label}|${r.inbox_state}|${r.latest_message_timestamp}`;
  const keep = new Set((row.label_ids ?? []).map((l) => keyOf(row, l)));
  for (const l of new Set(before?.label_ids ?? [])) {
    if (before!.inbox_state && keep.has(keyOf(before!, l))) continue; // same key: the put below replaces it
    items.push(
      e.chatLabelLink
        .delete({ org_id: before!.org_id, label_id: l, inbox_state: before!.inbox_state ?? 'open', latest_message_timestamp: before!.latest_message_timestamp, chat_id: before!.chat_id })
        .commit() as TxItem,
    );
  }
  for (const l of new Set(row.label_ids ?? [])) {
    items.push(
      e.chatLabelLink
        .put({ org_id: row.org_id, label_id: l, inbox_state: row.inbox_state, latest_message_timestamp: row.latest_message_timestamp, chat_id: row.chat_id, assignee_key: row.assignee_key, unread_key: row.unread_key, chat: toChatWire(row) })
        .commit() as TxItem,
    );
  }
  // custom property value rows (issue 15 item 4): the same dance as the label rows, keyed by (property, value)
  const propKey = (r: ChatRow, p: { property_id: string; value_key: string }) => `${p.property_id}|${p.value_key}|${r.inbox_state}|${r.latest_message_timestamp}`;
  const afterProps = propertyLinksOf(row.custom_properties);
  const keepProps = new Set(afterProps.map((p) => propKey(row, p)));
  for (const p of before ? propertyLinksOf(before.custom_properties) : []) {
    if (before!.inbox_state && keepProps.has(propKey(before!, p))) continue; // same key: the put below replaces it
    items.push(
      e.chatPropertyLink
        .delete({ org_id: before!.org_id, property_id: p.property_id, value_key: p.value_key, inbox_state: before!.inbox_state ?? 'open', latest_message_timestamp: before!.latest_message_timestamp, chat_id: before!.chat_id })
        .commit() as TxItem,
    );
  }
  for (const p of afterProps) {
    items.push(
      e.chatPropertyLink
        .put({ org_id: row.org_id, property_id: p.property_id, value_key: p.value_key, inbox_state: row.inbox_state, latest_message_timestamp: row.latest_message_timestamp, chat_id: row.chat_id, assignee_key: row.assignee_key, unread_key: row.unread_key, chat: toChatWire(row) })
        .commit() as TxItem,
    );
  }
  // the group row (groups only): re-put with the chat (same key, so no delete), removed if the chat is no longer a group
  const link = groupLinkOf(row);
  if (link) items.push(e.chatGroupLink.put(link).commit() as TxItem);
  else if (before?.chat_type === 'group') items.push(e.chatGroupLink.delete({ org_id: before.org_id, chat_id: before.chat_id }).commit() as TxItem);
  return { items, deltas: bucketDeltas(bucketsOf(before, now), bucketsOf(row, now)), row };
}

/**
 * The ChatGroupLink row of a stored chat row (its index keys already computed: withIndexKeys),
 * or null for a chat that is not a group (only groups carry one; chat.entity.ts).
 */
export function groupLinkOf(row: ChatRow): EntityItem<typeof ChatGroupLinkEntity> | null {
  if (row.chat_type !== 'group') return null;
  return {
    org_id: row.org_id,
    chat_id: row.chat_id,
    chat_type: row.chat_type,
    inbox_state: row.inbox_state,
    latest_message_timestamp: row.latest_message_timestamp,
    assignee_key: row.assignee_key,
    unread_key: row.unread_key,
    chat: toChatWire(row),
  };
}

/** ADD operations for merged counter deltas of one transaction. */
export function counterItems(e: TxEntities, orgId: string, deltas: Record<string, number>): TxItem[] {
  return Object.entries(deltas).map(([bucket, d]) => e.chatCounter.update({ org_id: orgId, bucket }).add({ n: d }).commit() as TxItem);
}

/** Items (chat + label rows) of a write and its merged counter ops: what a one-chat transaction needs. */
export function chatWriteTx(e: TxEntities, before: ChatRow | null, after: ChatRow, now: number): { items: TxItem[]; row: ChatRow } {
  const w = chatWriteItems(e, before, after, now);
  return { items: [...w.items, ...counterItems(e, after.org_id, mergeDeltas({}, w.deltas))], row: w.row };
}

const MAX_RETRIES = 8;

/** The domain events a chat write causes, from the stored row and the one written (written in the same transaction: the outbox). */
export type ChatEvents = (before: ChatRow, after: ChatRow) => PublishInput[];

/**
 * Read-modify-write of one chat, retried when another writer got there first.
 * @param mutate gets the stored row; returns the new row, or null when nothing is to change
 * @param extra more items for the same transaction (e.g. a member's chat state), built per attempt
 * @param events the events of the change, stored in the same transaction (events/outbox.ts) and
 *   published once it commits; not called when nothing changed
 * @returns { before, after } (after === before when mutate returned null); null when the chat does not exist
 * @throws ConflictRetriesExhausted (shared/db/retry.ts) when the chat kept changing for MAX_RETRIES attempts
 */
export async function updateChatRow(
  orgId: string,
  chatId: string,
  mutate: (chat: ChatRow, now: number) => ChatRow | null,
  extra?: (e: TxEntities, after: ChatRow) => TxItem[],
  events?: ChatEvents,
): Promise<{ before: ChatRow; after: ChatRow } | null> {
  return retryOnConflict(`chat ${chatId}`, async () => {
    const before = (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go()).data as ChatRow | null;
    if (!before) return null;
    const now = Date.now();
    const next = mutate(before, now);
    if (!next) return { before, after: before };
    let row: ChatRow = next;
    const ok = await commitWithEvents((e) => {
      const w = chatWriteTx(e, before, next, now);
      row = w.row;
      return { items: [...w.items, ...(extra ? extra(e, w.row) : [])], events: events ? events(before, w.row) : [] };
    });
    return ok ? { before, after: row } : RETRY;
  }, { attempts: MAX_RETRIES });
}

/** Outbox items one chat's write is allowed in updateChatRows (its events: one chat.updated today). */
const EVENTS_PER_CHAT = 1;

/** Upper bound of the transaction items one chat's write takes (row, label, property and group rows, counters before merging). */
function writeCost(before: ChatRow, after: ChatRow): number {
  const lb = (before.label_ids ?? []).length;
  const la = (after.label_ids ?? []).length;
  const props = propertyLinksOf(before.custom_properties).length + propertyLinksOf(after.custom_properties).length;
  const group = before.chat_type === 'group' || after.chat_type === 'group' ? 1 : 0;
  return 1 + lb + la + props + group + 2 * (5 + Math.max(lb, la));
}

/** One chat's outcome in updateChatRows: the write, null (no such chat) or the error its mutate threw. */
export type ChatRowOutcome = { before: ChatRow; after: ChatRow } | null | Error;

/**
 * Read-modify-write of several chats in shared transactions (at most 100 items each; counter
 * changes merged, one operation per counter): what bulk actions use, so changing N chats takes
 * about N/8 transactions and the shared counter items are not fought over N times. The rows are
 * read with one BatchGet. A cancelled transaction (a chat changed meanwhile) is redone chat by chat
 * with updateChatRow's retries.
 * @param mutate as in updateChatRow; an error it throws is that chat's outcome, the others go on
 * @param events as in updateChatRow: each changed chat's events, in the transaction that writes it
 * @returns chat_id -> outcome, for every id given
 */
export async function updateChatRows(orgId: string, chatIds: string[], mutate: (chat: ChatRow, now: number) => ChatRow | null, events?: ChatEvents): Promise<Map<string, ChatRowOutcome>> {
  const out = new Map<string, ChatRowOutcome>();
  const ids = [...new Set(chatIds)];
  if (!ids.length) return out;
  const got = await db()
    .entities.chat.get(ids.map((chat_id) => ({ org_id: orgId, chat_id })))
    .go({ concurrency: 2 });
  const rows = new Map((got.data as ChatRow[]).map((c) => [c.chat_id, c]));
  const unread = new Set((got.unprocessed ?? []).map((k) => (k as { chat_id: string }).chat_id));
  const now = Date.now();
  const one = async (id: string) => {
    try {
      out.set(id, await updateChatRow(orgId, id, mutate, undefined, events));
    } catch (e) {
      out.set(id, e as Error);
    }
  };
  const groups: Array<Array<{ id: string; before: ChatRow; next: ChatRow }>> = [[]];
  let size = 0;
  for (const id of ids) {
    if (unread.has(id)) {
      await one(id);
      continue;
    }
    const before = rows.get(id);
    if (!before) {
      out.set(id, null);
      continue;
    }
    let next: ChatRow | null;
    try {
      next = mutate(before, now);
    } catch (e) {
      out.set(id, e as Error);
      continue;
    }
    if (!next) {
      out.set(id, { before, after: before });
      continue;
    }
    const cost = writeCost(before, next) + EVENTS_PER_CHAT;
    if (size + cost > 100 && groups[groups.length - 1].length) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1].push({ id, before, next });
    size += cost;
  }
  for (const group of groups) {
    if (!group.length) continue;
    const written = new Map<string, ChatRow>();
    const ok = await commitWithEvents((e) => {
      const deltas: Record<string, number> = {};
      const evs: PublishInput[] = [];
      const items = group.flatMap(({ id, before, next }) => {
        const w = chatWriteItems(e, before, next, now);
        written.set(id, w.row);
        mergeDeltas(deltas, w.deltas);
        if (events) evs.push(...events(before, w.row));
        return w.items;
      });
      return { items: [...items, ...counterItems(e, orgId, deltas)], events: evs };
    }).catch(() => false);
    if (ok) for (const { id, before } of group) out.set(id, { before, after: written.get(id)! });
    else for (const { id } of group) await one(id);
  }
  return out;
}
