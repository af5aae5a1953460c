import { z } from 'zod';

/**
 * Every domain event's EventBridge `detail`: `{ properties, metadata }` (house style).
 * `metadata.id` is deterministic where the event can be re-emitted (e.g. `message.received:{wamid}`)
 * so consumers dedupe on it: delivery is at least once.
 */
export const EventMetadata = z.object({
  id: z.string().min(1),
  version: z.number().int().positive(),
  /** ISO-8601 */
  occurred_at: z.string(),
  /** `user:{email}`, `system`, or `whatsapp:{phone_id}` */
  actor: z.string(),
  correlation_id: z.string().optional(),
  /** issue 17: the rules whose actions caused this event (events/causation.ts), absent for events no rule caused */
  causation: z.object({ event_id: z.string(), rule_ids: z.array(z.string()), depth: z.number().int() }).optional(),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

/** Build the detail schema of an event from its properties schema. */
export const detailOf = <P extends z.ZodTypeAny>(properties: P) => z.object({ properties, metadata: EventMetadata });
