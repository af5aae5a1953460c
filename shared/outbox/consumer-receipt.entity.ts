import { Entity } from 'electrodb';

/**
 * That one consumer (a subscription of events/catalog.ts) took or finished one event, by the
 * event's `metadata.id` (functions/lib/dedupe.ts): how at-least-once delivery (the outbox relay and
 * the stream consumer may both publish an event; SQS redelivers) becomes one handling per consumer.
 * `state` `in_progress` is a claim that lapses at `lease_until` (epoch ms; a consumer that died
 * mid-record leaves it), `done` is final. Access: by key only (conditional put, update, get).
 * TTL `expires_at` (epoch s): 7 days after it was done, longer than any redelivery or outbox row.
 */
export const ConsumerReceiptEntity = new Entity({
  model: { entity: 'consumer_receipt', version: '1', service: 'chorus' },
  attributes: {
    consumer: { type: 'string', required: true },
    event_id: { type: 'string', required: true },
    state: { type: ['in_progress', 'done'] as const, required: true },
    /** who holds the claim (a random token per attempt) */
    token: { type: 'string', required: true },
    /** epoch ms until which an in_progress claim holds */
    lease_until: { type: 'number', required: true },
    /** DynamoDB TTL, epoch s */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byEvent: { pk: { field: 'pk', composite: ['consumer', 'event_id'] }, sk: { field: 'sk', composite: [] } },
  },
});
