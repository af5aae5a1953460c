import { sqsBatchHandler } from '../lib/sqs.ts';
import { broadcastToOrg, listOrgConnections } from '../../shared/realtime/connections.ts';
import { db } from '../../shared/db/service.ts';
import { orgActiveMembers } from '../../shared/auth/actor.ts';
import type { SQSRecord } from 'aws-lambda';
import { bodyOf, parseEventRecord } from '../lib/records.ts';
import { getOrgPreferences } from '../../shared/org/preferences.ts';
import type { Viewer } from '../../shared/chat/chat-access.rules.ts';
import { eventChatRef, viewEventFor, type EventViewContext, type PushedEvent } from '../../shared/realtime/event-view.ts';

/**
 * realtime-fanout consumer: EventBridge -> SQS -> here. Pushes each event to the connected members
 * of its org as `{ type, properties, metadata }`, each member getting what
 * shared/realtime/event-view.ts `viewEventFor` gives them (audience, per-chat access, masking;
 * spec §2, §6). Pushing the same event twice is harmless (clients upsert by id), so at-least-once
 * delivery needs no idempotency store: repeats are skipped by in-process receipts only.
 *
 * Read once per batch and org, first: the org's connections (one Query). An org nobody is connected
 * to right now gets nothing and nothing more is read for it (issue 16: a broadcast's messages made
 * ~8 reads each here while no one watched). The connections are read per batch, never cached, so a
 * socket that connects gets the next batch's events. For orgs with connections: the **active**
 * members (a connection whose email is not an active member now gets nothing: removed members and
 * invites, whatever rows are left; cached per process like resolveActor's member rows, forgotten at
 * once by this process's member writes, at most 2 s old otherwise) and the preferences; once per batch, for all its chats in one
 * BatchGet: each chat's current `chat_access` (never the event's snapshot, so a revocation applies to
 * the next event even when it was published before), and for a task linked to a ticket, the
 * ticket's chat. One record's failure (a bad payload, a failed read) fails that record only.
 */
export const handler = sqsBatchHandler('realtime-fanout', async (records) => {
  const memo = <T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
    if (!cache.has(key)) cache.set(key, load());
    return cache.get(key)!;
  };
  const connections = new Map<string, ReturnType<typeof listOrgConnections>>();
  const members = new Map<string, Promise<Map<string, Viewer>>>();
  const prefs = new Map<string, Promise<boolean>>();
  const chats = new Map<string, Promise<{ chat_access?: Record<string, boolean> | null } | null>>();
  const tickets = new Map<string, Promise<string | undefined>>();

  // active members by lower-cased email (access pattern: members of an org), cached per process as
  // resolveActor's member rows are (shared/auth/actor.ts orgActiveMembers)
  const membersOf = (orgId: string) => memo(members, orgId, () => orgActiveMembers(orgId));
  // the chat's current access (access pattern: chat by id)
  const chatOf = (orgId: string, chatId: string) =>
    memo(chats, `${orgId}|${chatId}`, async () => {
      const row = (await db().entities.chat.get({ org_id: orgId, chat_id: chatId }).go({ attributes: ['chat_access'] })).data;
      return row ? { chat_access: (row.chat_access as Record<string, boolean> | undefined) ?? null } : null;
    });
  // the chat of a ticket (access pattern: ticket by id)
  const ticketChatOf = (orgId: string, ticketId: string) =>
    memo(tickets, `${orgId}|${ticketId}`, async () => (await db().entities.ticket.get({ org_id: orgId, ticket_id: ticketId }).go({ attributes: ['chat_id'] })).data?.chat_id ?? undefined);

  // the batch's chats in one BatchGet (not a GetItem per chat): issue 23 measured one GetItem per
  // event as the fan-out's largest DynamoDB cost at a burst over many chats. A chat the BatchGet left
  // unprocessed (throttled) is read on its own by chatOf.
  const connectionsOf = (orgId: string) => memo(connections, orgId, () => listOrgConnections(orgId));
  const parsed: Array<{ org_id: string; chat_id?: string }> = [];
  for (const record of records) {
    try {
      const raw = parseEventRecord(record, 'realtime-fanout');
      const props = raw.detail.properties as { org_id?: unknown } & Record<string, unknown>;
      const ref = eventChatRef({ type: raw['detail-type'], properties: props });
      if (typeof props.org_id === 'string') parsed.push({ org_id: props.org_id, ...(ref && 'chat_id' in ref ? { chat_id: ref.chat_id } : {}) });
    } catch {
      // a bad record fails on its own below
    }
  }
  // the batch's orgs' connections first: chats of orgs nobody is connected to are not read
  const connected = new Set<string>();
  await Promise.all(
    [...new Set(parsed.map((p) => p.org_id))].map(async (orgId) => {
      // a failed read fails the org's records below (connectionsOf keeps the rejection)
      const rows = await connectionsOf(orgId).catch(() => []);
      if (rows.length) connected.add(orgId);
    }),
  );
  const directRefs = new Map<string, { org_id: string; chat_id: string }>();
  for (const p of parsed) if (p.chat_id && connected.has(p.org_id)) directRefs.set(`${p.org_id}|${p.chat_id}`, { org_id: p.org_id, chat_id: p.chat_id });
  if (directRefs.size > 1) {
    const keys = [...directRefs.values()];
    const batch = db()
      .entities.chat.get(keys)
      .go({ attributes: ['org_id', 'chat_id', 'chat_access'] })
      .then((got) => {
        const left = new Set((got.unprocessed ?? []).map((k) => `${(k as { org_id: string }).org_id}|${(k as { chat_id: string }).chat_id}`));
        const found = new Map((got.data as Array<{ org_id: string; chat_id: string; chat_access?: Record<string, boolean> | null }>).map((c) => [`${c.org_id}|${c.chat_id}`, c]));
        return { left, found };
      });
    for (const [key, k] of directRefs) {
      chats.set(
        key,
        batch.then(({ left, found }) => {
          if (left.has(key)) {
            chats.delete(key);
            return chatOf(k.org_id, k.chat_id);
          }
          const row = found.get(key);
          return row ? { chat_access: row.chat_access ?? null } : null;
        }),
      );
    }
  }

  // one chat's events are pushed in batch order (one after the other), other chats' concurrently
  const chains = new Map<string, Promise<unknown>>();
  const inOrder = (record: SQSRecord, work: () => Promise<number>) => {
    const p = (bodyOf(record) as { detail?: { properties?: { org_id?: unknown; chat_id?: unknown; chat?: { chat_id?: unknown }; message?: { chat_id?: unknown } } } } | null)?.detail?.properties;
    const chat = p?.chat_id ?? p?.chat?.chat_id ?? p?.message?.chat_id;
    if (typeof chat !== 'string') return work();
    const key = `${String(p?.org_id)}|${chat}`;
    const run = (chains.get(key) ?? Promise.resolve()).then(work, work);
    chains.set(key, run);
    return run;
  };

  return Promise.allSettled(
    records.map((record) => inOrder(record, async () => {
      const raw = parseEventRecord(record, 'realtime-fanout');
      const properties = raw.detail.properties as { org_id: string } & Record<string, unknown>;
      const orgId = properties.org_id;
      const event: PushedEvent = { type: raw['detail-type'], properties, metadata: raw.detail.metadata };

      const rows = await connectionsOf(orgId);
      // nobody of the org is connected: nothing to push, nothing more to read
      if (!rows.length) return 0;
      const ref = eventChatRef(event);
      const chatId = ref && ('chat_id' in ref ? ref.chat_id : await ticketChatOf(orgId, ref.ticket_id));
      const [viewers, mask, chat] = await Promise.all([
        membersOf(orgId),
        memo(prefs, orgId, async () => !!(await getOrgPreferences(orgId)).mask_phone_numbers),
        chatId ? chatOf(orgId, chatId) : Promise.resolve(null),
      ]);
      const ctx: EventViewContext = { maskPhoneNumbers: mask, ...(ref ? { chat } : {}) };

      // one view per member (several tabs share it); connections grouped by the payload they get
      const views = new Map<string, PushedEvent | null>();
      const groups = new Map<PushedEvent, typeof rows>();
      for (const r of rows) {
        const email = (r.email ?? '').toLowerCase();
        if (!views.has(email)) views.set(email, viewEventFor(viewers.get(email), event, ctx));
        const payload = views.get(email);
        if (!payload) continue;
        groups.set(payload, [...(groups.get(payload) ?? []), r]);
      }
      const sent = await Promise.all([...groups].map(([payload, to]) => broadcastToOrg(orgId, payload, to)));
      return sent.reduce((a, b) => a + b, 0);
    })),
  );
  // in-process receipts: a repeat only re-pushes what clients upsert by id (issue 23: the table
  // receipts were a BatchGet and a BatchWrite per batch, a third of the fan-out's DynamoDB calls)
}, { receipts: 'memory' });
