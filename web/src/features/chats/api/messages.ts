/**
 * Pure helpers for a thread's messages: kept oldest first, merged by `unique_id` so a message is
 * never shown twice (optimistic bubble, POST answer, socket events and refetched pages all converge).
 */
import type { Message } from '#shared/message/message.schemas.ts';
import { ACK } from '#shared/message/message.schemas.ts';

/** unique_id prefix of optimistic bubbles that exist only in this browser */
export const LOCAL_PREFIX = 'local:';
export const isLocal = (m: Message): boolean => m.unique_id.startsWith(LOCAL_PREFIX);

export const compareMessages = (a: Message, b: Message): number =>
  a.timestamp - b.timestamp || (a.unique_id < b.unique_id ? -1 : a.unique_id > b.unique_id ? 1 : 0);

/**
 * Merge a newer snapshot of a message into the stored one. Acks only move forward
 * (sent → delivered → read), except a failure (-1), which always wins over the stored state.
 */
export function mergeMessage(existing: Message | undefined, incoming: Message): Message {
  if (!existing) return incoming;
  const merged: Message = { ...existing, ...incoming };
  if (incoming.ack !== ACK.FAILED && existing.ack > incoming.ack) {
    merged.ack = existing.ack;
    merged.delivery_info = incoming.delivery_info ?? existing.delivery_info;
  }
  if (existing.ack === ACK.FAILED && incoming.ack === ACK.PENDING) {
    // a late 'stored, pending' snapshot must not hide a failure that was already reported
    merged.ack = ACK.FAILED;
    merged.delivery_error = existing.delivery_error ?? incoming.delivery_error;
  }
  keepSettled(existing, incoming, merged);
  return merged;
}

const EDIT_FIELDS = ['body', 'media', 'edit_history', 'edited_at', 'edit_status', 'edit_error'] as const;
const DELETE_FIELDS = ['is_deleted', 'deleted_at', 'deleted_by', 'delete_status', 'delete_error'] as const;

/**
 * Events can arrive out of order (and an HTTP answer after the socket): a late 'pending' snapshot
 * of an edit or delete (issue 5) must not undo what WhatsApp's result already settled — confirmed
 * ('sent', same change) or refused ('failed' after the change was made: the server reverted it).
 */
function keepSettled(existing: Message, incoming: Message, merged: Message): void {
  const keep = (fields: readonly (keyof Message)[]) => {
    for (const f of fields) (merged as Record<string, unknown>)[f] = existing[f];
  };
  if (incoming.edit_status === 'pending' && incoming.edited_at != null) {
    if (existing.edit_status === 'sent' && existing.edited_at === incoming.edited_at) merged.edit_status = 'sent';
    else if (existing.edit_status === 'failed' && (existing.edit_error?.at ?? 0) >= incoming.edited_at) keep(EDIT_FIELDS);
  }
  if (incoming.delete_status === 'pending' && incoming.deleted_at != null) {
    if (existing.delete_status === 'sent' && existing.deleted_at === incoming.deleted_at) merged.delete_status = 'sent';
    else if (existing.delete_status === 'failed' && (existing.delete_error?.at ?? 0) >= incoming.deleted_at) keep(DELETE_FIELDS);
  }
}

/** Upsert messages (any order) into an oldest-first list. Returns the same array when nothing changed. */
export function upsertMessages(list: Message[], incoming: Message[]): Message[] {
  if (incoming.length === 0) return list;
  const byId = new Map(list.map((m) => [m.unique_id, m]));
  for (const m of incoming) {
    // the stored copy of this browser's optimistic bubble (over the socket, before the POST answers)
    if (m.client_id) byId.delete(LOCAL_PREFIX + m.client_id);
    byId.set(m.unique_id, mergeMessage(byId.get(m.unique_id), m));
  }
  return [...byId.values()].sort(compareMessages);
}

/** Replace an optimistic bubble by the stored message (which may already have arrived over the socket). */
export function settleOptimistic(list: Message[], localId: string, stored: Message): Message[] {
  const without = list.filter((m) => m.unique_id !== localId);
  const already = without.find((m) => m.unique_id === stored.unique_id);
  // the socket copy is at least as fresh as the POST answer: keep it and only fill in gaps
  return upsertMessages(without, [already ? { ...stored, ...already } : stored]);
}

export const removeMessage = (list: Message[], uniqueId: string): Message[] => list.filter((m) => m.unique_id !== uniqueId);
