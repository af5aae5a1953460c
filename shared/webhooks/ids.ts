import { createHash, randomBytes } from 'node:crypto';
import { encodeTime } from 'ulid';

/** Server-side ids and secrets of outbound webhooks (Node crypto; the rules next door stay browser-safe). */

/** A signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks' format). */
export const generateSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The delivery id (= `webhook-id`) of one event for one endpoint: `msg_` + a ULID-shaped string
 * whose time part is the event's time and whose other 16 characters are a hash of (event id,
 * endpoint id). Deterministic, so a redelivered event makes the same id (idempotency), and
 * time-sortable (the delivery log lists newest first by it).
 */
export function deliveryIdFor(eventId: string, endpointId: string, at: number): string {
  const h = createHash('sha256').update(`${eventId}\u0000${endpointId}`).digest();
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[h[i]! % 32];
  return `msg_${encodeTime(at, 10)}${tail}`;
}

