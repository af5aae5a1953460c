import middy from '@middy/core';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { relayStreamRows } from '../../events/outbox.ts';
import { OUTBOX_ENTITY_NAME } from '../../shared/outbox/outbox-event.entity.ts';
import { log, withLogContext } from '../../shared/log.ts';
import { observability } from '../lib/powertools.ts';


/**
 * outbox-relay consumer (AWS): the table's stream (NEW_IMAGE), filtered by the event source mapping
 * to INSERTs of outbox rows (`__edb_e__ = outbox_event`, infra/stacks/workers-stack.ts), publishes
 * each event to EventBridge and deletes its row, unless the row is already gone (the in-process
 * relay published it right after its commit): events/outbox.ts relayStreamRows. A failure throws,
 * so the batch is retried (bisected) and after its retries lands in the mapping's on-failure queue;
 * consumers dedupe by event id, so a retried batch's events are handled once.
 */
export const handler = middy<DynamoDBStreamEvent, { relayed: number }, Error, Context>(async (event: DynamoDBStreamEvent) =>
  withLogContext({ queue: 'outbox-relay' }, async () => {
    const keys = event.Records.filter((r) => r.eventName === 'INSERT' && r.dynamodb?.NewImage?.__edb_e__?.S === OUTBOX_ENTITY_NAME).map((r) => {
      const img = r.dynamodb!.NewImage!;
      return { shard: Number(img.shard?.N), written_at: Number(img.written_at?.N), event_id: String(img.event_id?.S) };
    });
    const relayed = await relayStreamRows(keys.filter((k) => Number.isFinite(k.shard) && Number.isFinite(k.written_at) && k.event_id));
    log('info', 'outbox.relayed', { records: event.Records.length, relayed });
    return { relayed };
  }),
).use(observability());
