/**
 * The one DynamoDB table: key schema and indexes. Pure data, read by the local runtime
 * (CreateTable on DynamoDB Local) and by the CDK data stack, so the two cannot drift.
 * Physical key values are formatted by ElectroDB (see shared/db/service.ts);
 * the patterns each index serves are listed in shared/db/ACCESS_PATTERNS.md.
 */
export const TABLE_DEFINITION = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Overloaded GSIs; every index projects all attributes. */
  globalIndexes: [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ name: `gsi${n}`, partitionKey: `gsi${n}pk`, sortKey: `gsi${n}sk` })),
  /** TTL attribute, epoch **seconds** (DynamoDB's rule). */
  ttlAttribute: 'expires_at',
  /** Stream view (AWS): new images, read by the outbox relay (functions/consumers/outbox-relay.ts). */
  streamView: 'NEW_IMAGE',
  /** ElectroDB's entity name (`__edb_e__`) of outbox rows (shared/outbox/outbox-event.entity.ts): the relay's stream filter. */
  outboxEntity: 'outbox_event',
} as const;
