import { ulid } from 'ulid';
import { SUBSCRIPTIONS, matchesPattern } from '../../events/catalog.ts';
import type { BusEntry, EventTransport } from '../../events/publish.ts';
import type { LocalQueue } from './queue.ts';

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
        for (const sub of SUBSCRIPTIONS) {
          if (!matchesPattern(sub.pattern, event)) continue;
          const q = queues.get(sub.name);
          if (!q) throw new Error(`no local queue for subscription ${sub.name}`);
          await q.send(body);
        }
      }
    },
  };
}
