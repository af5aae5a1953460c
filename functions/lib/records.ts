import type { SQSRecord } from 'aws-lambda';
import { z } from 'zod';
import { SqsRecordSchema } from '@aws-lambda-powertools/parser/schemas/sqs';
import { EventBridgeSchema } from '@aws-lambda-powertools/parser/schemas/eventbridge';
import { JSONStringified } from '@aws-lambda-powertools/parser/helpers';
import { detailSchema, SUBSCRIPTIONS, type EventName, type EventProperties } from '../../events/catalog.ts';
import type { EventMetadata } from '../../events/contracts/envelope.ts';

/**
 * Typed queue records through Powertools Parser (`@aws-lambda-powertools/parser`): the SQS record
 * envelope (`SqsRecordSchema`), its JSON body (`JSONStringified`) and, for event queues, the
 * EventBridge envelope (`EventBridgeSchema`) whose `detail` is the event catalogue's own
 * `{ properties, metadata }` schema (events/catalog.ts `detailSchema`), chosen by `detail-type`.
 *
 * Pinned to parser 2.20.0: later versions need zod 4 (`z.iso`), and this repo is on zod 3.
 * A record that does not parse throws a ZodError (its issue paths run through `body`), which fails
 * that record only (retried, then dead-lettered).
 */

type Subscription = (typeof SUBSCRIPTIONS)[number];
/** Name of an event subscription (an SQS queue fed by EventBridge). */
export type SubscriptionName = Subscription['name'];
/** The event names a subscription's rule pattern lets through. */
export type EventsOf<S extends SubscriptionName> = Extract<Subscription, { name: S }>['pattern']['detail-type'][number];

/** One EventBridge event of the catalogue as a consumer receives it (`time` is ISO-8601). */
export type CatalogEvent<N extends EventName> = N extends EventName
  ? { id: string; source: string; time: string; 'detail-type': N; detail: { properties: EventProperties<N>; metadata: EventMetadata } }
  : never;

const eventSchemas = new Map<string, z.ZodTypeAny>();

/** The parser schema of an SQS record carrying one of a subscription's events (built once per subscription). */
function eventRecordSchema(subscription: SubscriptionName): z.ZodTypeAny {
  let schema = eventSchemas.get(subscription);
  if (!schema) {
    const sub = SUBSCRIPTIONS.find((s) => s.name === subscription);
    if (!sub) throw new Error(`no subscription named ${subscription} in events/catalog.ts`);
    const variants = (sub.pattern['detail-type'] as readonly EventName[]).map((name) =>
      EventBridgeSchema.extend({ 'detail-type': z.literal(name), detail: detailSchema(name) }),
    );
    const event = variants.length === 1 ? variants[0]! : z.discriminatedUnion('detail-type', variants as unknown as [z.AnyZodObject, z.AnyZodObject, ...z.AnyZodObject[]]);
    // the body arrives parsed already (bodyOf: one JSON.parse per record for the whole consumer)
    schema = SqsRecordSchema.extend({ body: event as z.AnyZodObject });
    eventSchemas.set(subscription, schema);
  }
  return schema;
}

/**
 * Parse an SQS record of an event subscription's queue into its typed EventBridge event.
 * @param subscription the subscription's name in events/catalog.ts SUBSCRIPTIONS (its pattern's `detail-type` list decides which events are accepted)
 * @throws ZodError when the record, its JSON body, the EventBridge envelope or the event's `{ properties, metadata }` break their schemas
 */
export function parseEventRecord<S extends SubscriptionName>(record: SQSRecord, subscription: S): CatalogEvent<EventsOf<S>> {
  // validated once per record object and subscription: a consumer's `relevant` test and its handler share it
  const cached = parsedEvents.get(record);
  if (cached?.subscription === subscription) return cached.event as CatalogEvent<EventsOf<S>>;
  const body = bodyOf(record);
  if (body === NOT_JSON) JSONStringified(z.unknown() as never).parse(record.body); // throws the parser's own 'Invalid JSON' ZodError
  const event = (eventRecordSchema(subscription).parse({ ...record, body }) as { body: CatalogEvent<EventsOf<S>> }).body;
  parsedEvents.set(record, { subscription, event });
  return event;
}

/** Events validated by parseEventRecord, by record object (a failed parse is not kept: it throws again). */
const parsedEvents = new WeakMap<SQSRecord, { subscription: string; event: unknown }>();

const NOT_JSON = Symbol('not JSON');
const bodies = new WeakMap<SQSRecord, unknown>();

/**
 * A record's JSON body, parsed once per record object (the consumer wrapper's dedupe and log
 * context and the consumer's own parse share it; issue 23: a body was parsed three times).
 * @returns the parsed value, or NOT_JSON when the body is not JSON
 */
export function bodyOf(record: SQSRecord): unknown {
  if (bodies.has(record)) return bodies.get(record);
  let v: unknown;
  try {
    v = JSON.parse(record.body);
  } catch {
    v = NOT_JSON;
  }
  bodies.set(record, v);
  return v;
}

/** Whether bodyOf found no JSON. */
export const isNotJson = (v: unknown): boolean => v === NOT_JSON;

/**
 * Parse an SQS record of a command queue: the record envelope, then its JSON body against the
 * command's zod schema.
 * @throws ZodError when the record or its body breaks the schema
 */
export function parseCommandRecord<S extends z.ZodTypeAny>(record: SQSRecord, body: S): z.infer<S> {
  return (SqsRecordSchema.extend({ body: JSONStringified(body as unknown as z.AnyZodObject) }).parse(record) as { body: z.infer<S> }).body;
}
