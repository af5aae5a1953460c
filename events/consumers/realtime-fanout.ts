import { sqsBatchHandler } from '../../functions/lib/sqs.ts';
import { broadcastToOrg, listOrgConnections } from '../../shared/realtime/connections.ts';
import { db } from '../../shared/db/service.ts';
import { EVENTS, type EventName } from '../catalog.ts';

/**
 * realtime-fanout consumer: EventBridge -> SQS -> here. Pushes each event to the connected
 * members of its org as `{ type, properties, metadata }`; the org's connections (and, for task
 * events, its admins) are read once per batch. Pushing the same event twice is harmless (clients
 * upsert by id), so at-least-once delivery needs no idempotency store.
 * Task events go only to the people who may see the task: admins, its assignee and its creator
 * (spec §2: members see only My Tasks). Per-chat access filtering (chat_access) and phone masking
 * arrive with the chat-workflow issue.
 */
export const handler = sqsBatchHandler('realtime-fanout', async (records) => {
  const parsed = records.map((record) => {
    const event = JSON.parse(record.body) as { 'detail-type': EventName; detail: { properties: unknown; metadata: unknown } };
    const name = event['detail-type'];
    if (!(name in EVENTS)) return undefined;
    const props = EVENTS[name].properties.parse(event.detail.properties) as { org_id: string; task?: { assignee: string | null; created_by: string } };
    const audience = name.startsWith('task.') && props.task ? new Set([props.task.assignee, props.task.created_by].filter((e): e is string => !!e)) : undefined;
    return { org_id: props.org_id, audience, payload: { type: name, properties: props, metadata: event.detail.metadata } };
  });
  const orgs = [...new Set(parsed.flatMap((p) => (p ? [p.org_id] : [])))];
  const connections = new Map(await Promise.all(orgs.map(async (o) => [o, await listOrgConnections(o)] as const)));
  const adminOrgs = [...new Set(parsed.flatMap((p) => (p?.audience ? [p.org_id] : [])))];
  const admins = new Map(
    await Promise.all(
      adminOrgs.map(async (o) => {
        const members = (await db().entities.member.query.byOrg({ org_id: o }).go({ pages: 'all' })).data;
        return [o, new Set(members.filter((m) => m.role === 'admin' && m.is_active !== false).map((m) => m.email))] as const;
      }),
    ),
  );
  return Promise.allSettled(
    parsed.map(async (p) => {
      if (!p) return 0;
      let rows = connections.get(p.org_id) ?? [];
      if (p.audience) rows = rows.filter((r) => p.audience!.has(r.email ?? '') || admins.get(p.org_id)?.has(r.email ?? ''));
      return broadcastToOrg(p.org_id, p.payload, rows);
    }),
  );
});
