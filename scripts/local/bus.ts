import { ulid } from 'ulid';
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
      for (const e of entries) {
        const event = {
          version: '0',
          id: ulid(),
          'detail-type': e['detail-type'],
          source: e.source,
          account: '000000000000',
          time: new Date().toISOString(),
          region: 'local',
          resources: [],
          detail: e.detail,
        };
        const body = JSON.stringify(event);
        // every matching queue at once (as EventBridge delivers to its targets): written one after
        // another, the last subscription waited for ~8 file writes before it saw the event. Entries
        // stay in order: the next entry starts once this one is on every queue.
        await Promise.all(
          SUBSCRIPTIONS.filter((sub) => matchesPattern(sub.pattern, event)).map((sub) => {
            const q = queues.get(sub.name);
            if (!q) throw new Error(`no local queue for subscription ${sub.name}`);
            return q.send(body, { groupId: ORDERED.has(sub.name) ? chatGroupOf(e) : undefined });
          }),
        );
      }
    },
  };
}
