import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { ulid } from 'ulid';
import { config } from '../shared/config.ts';
import { EVENTS, EVENT_SOURCE, type EventName, type EventProperties } from './catalog.ts';
import type { EventMetadata } from './contracts/envelope.ts';
import { traced } from '../shared/tracing.ts';
import { currentCausation } from './causation.ts';

/**
 * Publishing domain events. In AWS: EventBridge PutEvents on `EVENT_BUS_NAME`. The local runtime
 * installs its in-process bus with `setEventTransport` (scripts/local/bus.ts), which matches the
 * same catalogue patterns. Properties are validated against the catalogue before they leave.
 */
export interface BusEntry {
  source: string;
  'detail-type': EventName;
  detail: { properties: unknown; metadata: EventMetadata };
}

export interface EventTransport {
  put(entries: BusEntry[]): Promise<void>;
}

let transport: EventTransport | undefined;
let eb: EventBridgeClient | undefined;

/** Replace the transport (local runtime, tests). `undefined` restores EventBridge. */
export function setEventTransport(t: EventTransport | undefined): void {
  transport = t;
}

const eventBridge: EventTransport = {
  async put(entries) {
    eb ??= traced(new EventBridgeClient({ region: config().AWS_REGION, endpoint: config().AWS_ENDPOINT_URL }));
    for (let i = 0; i < entries.length; i += 10) {
      const batch = entries.slice(i, i + 10);
      const res = await eb.send(
        new PutEventsCommand({
          Entries: batch.map((e) => ({
            EventBusName: config().EVENT_BUS_NAME,
            Source: e.source,
            DetailType: e['detail-type'],
            Detail: JSON.stringify(e.detail),
          })),
        }),
      );
      if (res.FailedEntryCount) throw new Error(`EventBridge refused ${res.FailedEntryCount} event(s)`);
    }
  },
};

/** One event to publish: name, properties, and the options of `publish`. */
export interface PublishInput<N extends EventName = EventName> {
  name: N;
  properties: EventProperties<N>;
  actor: string;
  id?: string;
  correlation_id?: string;
}

/**
 * The bus entry of an event: properties validated against the catalogue (ZodError if they break
 * it), metadata filled in (`id` = the given one or `<name>:<ULID>`, `occurred_at` now).
 */
export function entryOf(e: PublishInput): BusEntry {
  const def = EVENTS[e.name];
  def.properties.parse(e.properties);
  return {
    source: EVENT_SOURCE,
    'detail-type': e.name,
    detail: {
      properties: e.properties,
      metadata: {
        id: e.id ?? `${e.name}:${ulid()}`,
        version: def.version,
        occurred_at: new Date().toISOString(),
        actor: e.actor,
        correlation_id: e.correlation_id,
        // issue 17: the loop guard's causation chain, when a rule's action published this
        ...(currentCausation() ? { causation: currentCausation() } : {}),
      },
    },
  };
}

/** Put already-built entries on the bus (the outbox relay: events/outbox.ts). */
export async function putEntries(entries: BusEntry[]): Promise<void> {
  if (entries.length) await (transport ?? eventBridge).put(entries);
}

/**
 * Publish one domain event straight to the bus, with no outbox: only for events that no write
 * causes. A use case that writes publishes through `commitWithEvents` (shared/db/transaction.ts).
 * @param opts.id deterministic id when the event may be emitted again for the same fact (consumers dedupe on it)
 * @throws ZodError if the properties break the event's contract; transport errors as thrown
 */
export async function publish<N extends EventName>(
  name: N,
  properties: EventProperties<N>,
  opts: { actor: string; id?: string; correlation_id?: string },
): Promise<void> {
  await (transport ?? eventBridge).put([entryOf({ name, properties, ...opts } as PublishInput)]);
}

/** Publish several events (no outbox, as `publish`) in as few calls as the transport allows (PutEvents takes 10 at a time). */
export async function publishAll(events: PublishInput[]): Promise<void> {
  if (events.length) await (transport ?? eventBridge).put(events.map(entryOf));
}
