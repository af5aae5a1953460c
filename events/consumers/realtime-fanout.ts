import { sqsHandler } from '../../functions/lib/sqs.ts';
import { broadcastToOrg } from '../../shared/realtime/connections.ts';
import { EVENTS, type EventName } from '../catalog.ts';

/**
 * realtime-fanout consumer: EventBridge -> SQS -> here. Pushes each message/chat event to the
 * connected members of its org as `{ type, properties, metadata }`. Pushing the same event twice
 * is harmless (clients upsert by chat_id / unique_id), so at-least-once delivery needs no store.
 * Per-chat access filtering (chat_access) and phone masking arrive with the chat-workflow issue.
 */
export const handler = sqsHandler('realtime-fanout', async (record) => {
  const event = JSON.parse(record.body) as { 'detail-type': EventName; detail: { properties: { org_id: string }; metadata: unknown } };
  const name = event['detail-type'];
  if (!(name in EVENTS)) return;
  const props = EVENTS[name].properties.parse(event.detail.properties) as { org_id: string };
  await broadcastToOrg(props.org_id, { type: name, properties: props, metadata: event.detail.metadata });
});
