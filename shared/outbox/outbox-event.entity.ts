import { Entity } from 'electrodb';
import { TABLE_DEFINITION } from '../db/table-definition.ts';

/** The entity name ElectroDB stores on every outbox row (`__edb_e__`): the AWS stream filter matches it. */
export const OUTBOX_ENTITY_NAME = TABLE_DEFINITION.outboxEntity;

/** Partitions of the outbox (a fixed, small number): rows spread over them by a hash of the event id; the local poller Queries each. */
export const OUTBOX_SHARDS = 4;

/**
 * Domain events waiting to be published (the transactional outbox, events/outbox.ts): the events
 * of one transaction, written in it as one row (the first event's fields, the rest in `more`),
 * deleted once they are on the bus.
 * Not org-owned (the event carries its org in `detail.properties`).
 * Access: rows of a shard written before a time, oldest first (Query `pk = shard`,
 * `sk < written_at`: the local poller); by key (delete after publish; the AWS stream consumer's
 * consistent read). TTL `expires_at` (epoch s) is a backstop only: a row is normally deleted
 * within milliseconds (in-process relay) or seconds (poller / stream consumer).
 */
export const OutboxEventEntity = new Entity({
  model: { entity: OUTBOX_ENTITY_NAME, version: '1', service: 'chorus' },
  attributes: {
    /** 0 .. OUTBOX_SHARDS-1, a hash of event_id */
    shard: { type: 'number', required: true },
    /** epoch ms the transaction was built (the poller's grace period is measured from it); 15 digits in the key */
    written_at: { type: 'number', required: true, padding: { length: 15, char: '0' } },
    /** the event's metadata.id (consumers dedupe on it) */
    event_id: { type: 'string', required: true },
    /** EventBridge Source */
    source: { type: 'string', required: true },
    /** EventBridge DetailType: the catalogue's event name */
    detail_type: { type: 'string', required: true },
    /** the event detail `{ properties, metadata }`, already validated against the catalogue */
    detail: { type: 'any', required: true },
    /**
     * the same transaction's other events, in order, each `{ source, detail_type, detail }`: one
     * row per transaction (events/outbox.ts outboxRows), so a commit of 40 events writes and later
     * deletes one item, not 40. Absent on a row of one event.
     */
    more: { type: 'any' },
    /** DynamoDB TTL, epoch s */
    expires_at: { type: 'number', required: true },
  },
  indexes: {
    byShard: { pk: { field: 'pk', composite: ['shard'] }, sk: { field: 'sk', composite: ['written_at', 'event_id'] } },
  },
});
