import { Entity } from 'electrodb';

/**
 * That one consumer (a subscription of events/catalog.ts) has handled one event, by the event's
 * `metadata.id` (functions/lib/dedupe.ts): how at-least-once delivery (the outbox may relay an
 * event twice; SQS redelivers) becomes one handling per consumer. Written after the handler
 * succeeded; a record whose receipt exists is skipped.
 * Access: by key only (GetItem before handling, PutItem after). TTL `expires_at` (epoch s):
 * 7 days after handling, longer than any outbox row (3 days) or SQS retention (4 days) lives.
 */
export const ConsumerReceiptEntity = new Entity({
  model: { entity: 'consumer_receipt', version: '1', service: 'chorus' },
  attributes: {
    consumer: { type: 'string', required: true },
    event_id: { type: 'string', required: true },
    /** epoch ms */
    handled_at: { type: 'number', required: true },
    /** DynamoDB TTL, epoch s */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byEvent: { pk: { field: 'pk', composite: ['consumer', 'event_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
