import { db } from '../db/service.ts';
import { messageKey } from '../message/message.ts';
import { commitWithEvents, type TxItem } from '../db/transaction.ts';
import { updateChatRow } from '../chat/chat-write.ts';
import { nextAck, statusToAck, deliveryInfoFor } from '../message/ack.rules.ts';
import { explainGraphError } from '../whatsapp/cloud/errors.ts';
import { toMessageWire } from './wire.ts';
import type { MetaError } from '../whatsapp/cloud/webhook.schemas.ts';
import { ConflictRetriesExhausted, RETRY, retryOnConflict } from '../db/retry.ts';

/** A status as kept on the wamid ref: Meta's unix-seconds timestamp and errors (failed only). */
export interface StatusRecord {
  timestamp: number;
  errors?: MetaError[];
}

const STATUS_ORDER = ['sent', 'delivered', 'read', 'played', 'failed'] as const;

/**
 * Apply every status recorded on a wamid ref to its message (monotonic, see ack.rules.ts), with
 * optimistic concurrency on the message's version; keeps the chat row's latest_message ack in
 * step. Publishes `message.status_updated` when the message changed.
 * @param ref the ref item: { chat_id, unique_id, timestamp, status_<name>: StatusRecord }
 */
export async function applyStatuses(orgId: string, ref: Record<string, unknown>): Promise<void> {
  // no status recorded yet (a send just accepted, before any webhook): nothing to apply, nothing to read
  if (!STATUS_ORDER.some((s) => ref[`status_${s}`])) return;
  const key = { org_id: orgId, chat_id: ref.chat_id as string, timestamp: ref.timestamp as number, unique_id: ref.unique_id as string };
  // a message that kept changing is left as it is: the next status of it applies the order again
  await retryOnConflict(`message ${key.unique_id} (statuses)`, async () => {
    const msg = (await db().entities.message.get(key).go()).data;
    if (!msg) return;
    let ack = msg.ack;
    let failure: MetaError | undefined;
    for (const s of STATUS_ORDER) {
      const rec = ref[`status_${s}`] as StatusRecord | undefined;
      if (!rec) continue;
      const incoming = statusToAck(s);
      if (incoming == null) continue;
      const after = nextAck(ack, incoming);
      if (after === -1 && ack !== -1) failure = rec.errors?.[0];
      ack = after;
    }
    if (ack === msg.ack) return;
    const delivery_error =
      ack === -1
        ? msg.delivery_error ??
          (() => {
            const info = explainGraphError(failure?.code, failure?.title);
            return { code: failure?.code ?? null, title: failure?.title ?? null, details: failure?.error_data?.details ?? failure?.message ?? null, reason: info.reason };
          })()
        : msg.delivery_error;
    const delivery_info = deliveryInfoFor(ack);
    const v = msg.version;
    // the message and its event in one transaction (the outbox)
    const ok = await commitWithEvents((e) => ({
      items: [
        e.message
          .patch(key)
          .set({ ack, delivery_info, delivery_error, version: v + 1 })
          .where(({ version }, { eq }) => eq(version, v))
          .commit() as TxItem,
      ],
      events: [
        {
          name: 'message.status_updated',
          properties: { org_id: orgId, chat_id: key.chat_id, message: toMessageWire({ ...msg, ack, delivery_info, delivery_error, version: v + 1 }) },
          actor: 'system',
          id: `message.status_updated:${orgId}:${key.unique_id}:${ack}`,
        },
      ],
    }));
    if (!ok) return RETRY;
    await syncLatestAck(orgId, key.chat_id, key.unique_id, ack);
  }, { onExhausted: () => undefined });
}

/**
 * If the message is the chat's latest, copy its ack to `latest_message` (list-row ticks). The ack
 * copied is the message's stored one, read after `ack` was written: two statuses of one message
 * handled at once (sent and read) must not leave the row at the older tick.
 */
export async function syncLatestAck(orgId: string, chatId: string, uniqueId: string, ack: number): Promise<void> {
  const key = messageKey(orgId, chatId, uniqueId);
  const stored = key ? (await db().entities.message.get(key).go()).data : null;
  const copied = stored?.ack ?? ack;
  // through chat-write.ts (version check, retried on a lost race); no event: the message's status event carries the tick
  await updateChatRow(orgId, chatId, (chat) => {
    const latest = chat.latest_message as { unique_id?: string; ack?: number } | undefined;
    if (latest?.unique_id !== uniqueId || latest.ack === copied) return null;
    return { ...chat, latest_message: { ...latest, ack: copied } };
  }).catch((e) => {
    if (!(e instanceof ConflictRetriesExhausted)) throw e;
  });
}
