import { NOOP, sqsBatchHandler } from '../lib/sqs.ts';
import { parseEventRecord } from '../lib/records.ts';
import { applyBroadcastReplies, applyBroadcastStatus } from '../../shared/broadcast/broadcast.ts';

/**
 * broadcast-stats consumer (issue 16 part B): statuses of broadcast messages (delivered, read,
 * failed with the reason) and customers' replies update the broadcast's recipient and counters,
 * exactly once each (conditional transactions). The batch's customer messages share one BatchGet
 * of their chats' broadcast refs (applyBroadcastReplies); other messages cost nothing more. A
 * record that changed nothing (not a broadcast's message, no broadcast in the chat) answers NOOP:
 * an in-process receipt, no receipt row (running it again would only read the ref again).
 * Every write is conditional (an ack only forward, `replied_at` only when unset), so a repeat
 * changes nothing: receipts are in-process only (no table BatchGet per batch of customer messages).
 */
export const handler = sqsBatchHandler('broadcast-stats', async (records) => {
  const results: PromiseSettledResult<unknown>[] = new Array(records.length);
  const replies: Array<{ at: number; orgId: string; chatId: string; message: { from_me?: boolean | null; timestamp: number } }> = [];
  await Promise.all(
    records.map(async (record, at) => {
      try {
        const ev = parseEventRecord(record, 'broadcast-stats');
        if (ev['detail-type'] === 'message.status_updated') {
          const p = ev.detail.properties;
          const changed = await applyBroadcastStatus(p.org_id, p.message as typeof p.message & { ack: number });
          results[at] = { status: 'fulfilled', value: changed ? undefined : NOOP };
          return;
        } else {
          const p = ev.detail.properties;
          replies.push({ at, orgId: p.org_id, chatId: p.chat.chat_id, message: p.message as typeof p.message & { timestamp: number } });
          return;
        }
      } catch (reason) {
        results[at] = { status: 'rejected', reason };
      }
    }),
  );
  const settled = await applyBroadcastReplies(replies);
  replies.forEach((r, i) => {
    const s = settled[i]!;
    results[r.at] = s.status === 'fulfilled' ? { status: 'fulfilled', value: s.value ? undefined : NOOP } : s;
  });
  return results;
}, { receipts: 'memory' });
