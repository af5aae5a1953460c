import { fastUlid } from '../../shared/ids.ts';
import { SUBSCRIPTIONS, matchesPattern } from '../../events/catalog.ts';
import type { BusEntry, EventTransport } from '../../events/publish.ts';
import type { LocalQueue } from './queue.ts';

/**
 * Subscriptions whose local queue is FIFO per chat (issue 23): one chat's events reach the
 * WebSocket in the order they were published (one in-flight batch per chat), other chats in
 * parallel. (In AWS an EventBridge rule can only give an SQS FIFO target a fixed MessageGroupId,
 * so the fan-out queue stays standard there and the thread orders by `unique_id`.)
 */
const ORDERED = new Set(['realtime-fanout']);

/** `<org>:<chat>` of an event about a chat or message, else undefined (no ordering needed). */
export function chatGroupOf(e: BusEntry): string | undefined {
  const p = (e.detail as { properties?: Record<string, unknown> }).properties ?? {};
  const nested = (k: string) => (p[k] && typeof p[k] === 'object' ? (p[k] as { chat_id?: unknown }).chat_id : undefined);
  const chat = p.chat_id ?? nested('chat') ?? nested('message');
  return typeof p.org_id === 'string' && typeof chat === 'string' ? `${p.org_id}:${chat}` : undefined;
}

/**
 * Local stand-in for EventBridge (no emulator exists): applies the catalogue's rule patterns
 * (the same ones the CDK rules use) and delivers the EventBridge-shaped event JSON to each
 * matching subscription's durable local queue, as an EventBridge -> SQS target would.
 */
export function localBus(queues: Map<string, LocalQueue>): EventTransport {
  return {
    async put(entries: BusEntry[]) {
      // every entry goes to its matching queues, and each queue takes all of its entries in ONE
      // sendMany, every queue at once (as EventBridge delivers to its targets). Written entry by
      // entry (the next one starting once this one was on every queue), a transaction's 6 events
      // waited for 6 rounds of file writes before the last reached the rules queue (issue 17:
      // "stored -> on the rules queue" was the largest part of bench:rules). sendMany keeps the
      // entries' order within each queue (ids in order, enqueued together) and resolves once all
      // are on disk, so the outbox row is still deleted only after its event is durable.
      const perQueue = new Map<LocalQueue, Array<{ body: string; groupId?: string }>>();
      for (const e of entries) {
        const event = {
          version: '0',
          id: fastUlid(),
          'detail-type': e['detail-type'],
          source: e.source,
          account: '000000000000',
          time: new Date().toISOString(),
          region: 'local',
          resources: [],
          detail: e.detail,
        };
        let body: string | undefined;
        for (const sub of SUBSCRIPTIONS) {
          if (!matchesPattern(sub.pattern, event)) continue;
          const q = queues.get(sub.name);
          if (!q) throw new Error(`no local queue for subscription ${sub.name}`);
          body ??= JSON.stringify(event);
          const list = perQueue.get(q) ?? [];
          list.push({ body, groupId: ORDERED.has(sub.name) ? chatGroupOf(e) : undefined });
          perQueue.set(q, list);
        }
      }
      await Promise.all([...perQueue].map(([q, items]) => q.sendMany(items)));
    },
  };
}
