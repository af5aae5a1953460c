
/**
 * Pure rules of outbound webhooks (issue 20 items 4, 5, 7). Times are epoch **ms**.
 *
 * Public event types are what endpoints subscribe to and what the payload's `type` says; they are
 * derived from the internal bus events (events/catalog.ts) by EVENT_MAP, a table meant to grow:
 * contact.*, rule.* and broadcast.* events join it (one line each) when those features publish
 * bus events (none exist yet).
 */

/** Events a webhook / Zapier / Pabbly endpoint can subscribe to. */
export const PUBLIC_EVENTS = [
  'message.received',
  'message.sent',
  'message.status_updated',
  'chat.assigned',
  'chat.closed',
  'ticket.created',
  'ticket.updated',
  'ticket.closed',
  'task.created',
  'task.updated',
  'task.reminder_due',
] as const;
export type PublicEvent = (typeof PUBLIC_EVENTS)[number];

/**
 * Events of the Slack integration (issue 20 item 7). `sla.breached` has no source event yet (no SLA
 * feature publishes one): it can be chosen and starts arriving when that event joins EVENT_MAP.
 */
export const SLACK_EVENTS = ['chat.new_unassigned', 'mention.created', 'sla.breached'] as const;
export type SlackEvent = (typeof SLACK_EVENTS)[number];

/** The event sent by "Send test event" (to any endpoint, subscribed or not). */
export const TEST_EVENT = 'webhook.test';

export type OutboundEvent = PublicEvent | SlackEvent | typeof TEST_EVENT;

type Props = Record<string, unknown>;
const chatOf = (p: Props) => (p.chat ?? {}) as Record<string, unknown>;
const changesOf = (p: Props) => (Array.isArray(p.changes) ? (p.changes as string[]) : []);

/**
 * Internal bus event -> the public events it becomes (0..n) given its properties. Extend here (and
 * add the bus event to the `webhook-dispatch` subscription in events/catalog.ts).
 */
export const EVENT_MAP: Record<string, (p: Props) => OutboundEvent[]> = {
  'message.received': (p) => {
    const chat = chatOf(p);
    // a customer message that makes an unassigned chat need someone: its first unread message
    const newUnassigned = !chat.assigned_to && Number(chat.message_unread_count ?? 0) <= 1;
    return newUnassigned ? ['message.received', 'chat.new_unassigned'] : ['message.received'];
  },
  'message.sent': () => ['message.sent'],
  'message.status_updated': () => ['message.status_updated'],
  'chat.updated': (p) => {
    const out: OutboundEvent[] = [];
    if (changesOf(p).includes('assigned_to')) out.push('chat.assigned');
    if (changesOf(p).includes('closed_at') && chatOf(p).closed_at) out.push('chat.closed');
    return out;
  },
  'ticket.created': () => ['ticket.created'],
  'ticket.updated': () => ['ticket.updated'],
  'ticket.closed': () => ['ticket.closed'],
  'task.created': () => ['task.created'],
  'task.updated': () => ['task.updated'],
  'task.reminder_due': () => ['task.reminder_due'],
  'notification.created': (p) => ((p.notification as { kind?: string } | undefined)?.kind === 'mention' ? ['mention.created'] : []),
};

/** The bus events the dispatcher listens to (the subscription's pattern in events/catalog.ts equals this; a test checks). */
export const DISPATCHED_BUS_EVENTS = Object.keys(EVENT_MAP);

/**
 * Retry schedule (Standard Webhooks / Svix style): the wait before attempt n+1 after attempt n
 * failed, ms. 8 attempts over ~27.6 h. The worker may scale it (bench: `CHORUS_WEBHOOK_BACKOFF_SCALE`).
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Wait before the attempt after `attempt` (1-based) failed, or null when the delivery is exhausted. */
export function retryDelay(attempt: number, scale = 1): number | null {
  const d = RETRY_DELAYS_MS[attempt - 1];
  return d === undefined ? null : Math.max(1, Math.round(d * scale));
}

/**
 * Disabling rule (documented in the README): an endpoint is disabled when a delivery has used all
 * its attempts AND the endpoint has not had one successful delivery for DISABLE_AFTER_MS (5 days)
 * — `failing_since` is the first failed attempt after the last success. One exhausted delivery
 * alone (24 h of failures) does not disable it; continued failure over 5 days does.
 */
export const DISABLE_AFTER_MS = 5 * 24 * 3600_000;
export function shouldDisable(failingSince: number | null | undefined, now: number): boolean {
  return failingSince != null && now - failingSince >= DISABLE_AFTER_MS;
}

/** A response that counts as delivered: any 2xx (Standard Webhooks). */
export const isDelivered = (status: number) => status >= 200 && status < 300;

/** How long the previous secret still signs after a rotation (receivers switch within it). */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

/** Standard Webhooks payload: `{ type, timestamp (ISO-8601), data }`. */
export interface WebhookPayload {
  type: OutboundEvent;
  timestamp: string;
  data: Record<string, unknown>;
}
