import { sqsBatchHandler } from '../../functions/lib/sqs.ts';
import { broadcastToOrg, listOrgConnections } from '../../shared/realtime/connections.ts';
import { EVENTS, type EventName } from '../catalog.ts';

/**
 * realtime-fanout consumer: EventBridge -> SQS -> here. Pushes each message/chat event to the
 * connected members of its org as `{ type, properties, metadata }`; the org's connections are
 * read once per batch. Pushing the same event twice is harmless (clients upsert by chat_id /
 * unique_id), so at-least-once delivery needs no idempotency store.
 * Per-chat access filtering (chat_access) and phone masking arrive with the chat-workflow issue.
 */
export const handler = sqsBatchHandler('realtime-fanout', async (records) => {
  const parsed = records.map((record) => {
    const event = JSON.parse(record.body) as { 'detail-type': EventName; detail: { properties: unknown; metadata: unknown } };
    const name = event['detail-type'];
    if (!(name in EVENTS)) return undefined;
    const props = EVENTS[name].properties.parse(event.detail.properties) as { org_id: string };
    return { org_id: props.org_id, payload: { type: name, properties: props, metadata: event.detail.metadata } };
  });
  const orgs = [...new Set(parsed.flatMap((p) => (p ? [p.org_id] : [])))];
  const connections = new Map(await Promise.all(orgs.map(async (o) => [o, await listOrgConnections(o)] as const)));
  return Promise.allSettled(parsed.map(async (p) => (p ? broadcastToOrg(p.org_id, p.payload, connections.get(p.org_id)) : 0)));
});
