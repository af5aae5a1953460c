import { sqsBatchHandler } from '../../functions/lib/sqs.ts';
import { broadcastToOrg, listOrgConnections } from '../../shared/realtime/connections.ts';
import { db } from '../../shared/db/service.ts';
import { EVENTS, type EventName } from '../catalog.ts';
import { getOrgPreferences } from '../../shared/org/preferences.ts';
import { canSeeChat, mustMask } from '../../shared/chat/chat-access.rules.ts';
import { viewChat, viewMessage } from '../../shared/chat/chat-view.ts';
import type { Message } from '../../shared/message/message.schemas.ts';

/**
 * realtime-fanout consumer: EventBridge -> SQS -> here. Pushes each event to the connected
 * members of its org as `{ type, properties, metadata }`; the org's connections (and, for task
 * events, its admins) are read once per batch. Pushing the same event twice is harmless (clients
 * upsert by id), so at-least-once delivery needs no idempotency store.
 * Task events go only to the people who may see the task: admins, its assignee and its creator
 * (spec §2: members see only My Tasks); a `notification.created` only to its recipient, a
 * `bulk_job.updated` only to the job's creator, a `phone.session_updated` (WhatsApp Web linking, with
 * its QR) only to admins.
 * Message, private-note and chat events are personalised per member (spec §6, shared/chat/chat-view.ts): a
 * member the chat's chat_access does not list gets only the chat's stub (`has_access: false`, as
 * a `chat.updated`) and none of its messages; with mask_phone_numbers on, non-admins get masked
 * numbers. Members' roles and the org's preferences are read once per batch.
 */
export const handler = sqsBatchHandler('realtime-fanout', async (records) => {
  const parsed = records.map((record) => {
    const event = JSON.parse(record.body) as { 'detail-type': EventName; detail: { properties: unknown; metadata: unknown } };
    const name = event['detail-type'];
    if (!(name in EVENTS)) return undefined;
    const props = EVENTS[name].properties.parse(event.detail.properties) as { org_id: string; email?: string; task?: { assignee: string | null; created_by: string }; job?: { created_by: string } };
    // a notification is for its recipient alone (admins do not get other people's); so is a bulk job's progress, for its creator
    const recipient = name === 'notification.created' ? props.email : name === 'bulk_job.updated' ? props.job?.created_by : undefined;
    const audience = recipient
      ? new Set([recipient])
      : name.startsWith('task.') && props.task
        ? new Set([props.task.assignee, props.task.created_by].filter((e): e is string => !!e))
        : name === 'phone.session_updated'
          ? new Set<string>() // admins only (added below): the QR links a device to the number
          : undefined;
    return { org_id: props.org_id, audience, withAdmins: !recipient, payload: { type: name, properties: props, metadata: event.detail.metadata } };
  });
  const orgs = [...new Set(parsed.flatMap((p) => (p ? [p.org_id] : [])))];
  const connections = new Map(await Promise.all(orgs.map(async (o) => [o, await listOrgConnections(o)] as const)));
  // private notes (note.*) are messages of a chat too: only members who may see the chat get them
  const chatScoped = (p: (typeof parsed)[number]) => !!p && /^(message|chat|note)\./.test(p.payload.type);
  // members' roles, read at most once per org per batch and only when an event needs them
  // (task audiences, or a chat with chat_access set or masked numbers)
  const rolesByOrg = new Map<string, Promise<Map<string, 'admin' | 'member'>>>();
  const rolesOf = (o: string) => {
    if (!rolesByOrg.has(o)) {
      rolesByOrg.set(
        o,
        db()
          .entities.member.query.byOrg({ org_id: o })
          .go({ pages: 'all' })
          .then((r) => new Map(r.data.filter((m) => m.is_active !== false).map((m) => [m.email.toLowerCase(), m.role] as const))),
      );
    }
    return rolesByOrg.get(o)!;
  };
  const adminsOf = async (o: string) => new Set([...(await rolesOf(o))].filter(([, r]) => r === 'admin').map(([e]) => e));
  const chatOrgs = [...new Set(parsed.flatMap((p) => (chatScoped(p) ? [p!.org_id] : [])))];
  const prefs = new Map(await Promise.all(chatOrgs.map(async (o) => [o, await getOrgPreferences(o)] as const)));
  // chat_access of chats whose events carry only a chat_id (read once per chat per batch)
  const accessOf = new Map<string, Promise<Record<string, boolean> | undefined>>();
  const chatAccessFor = (orgId: string, props: { chat?: { chat_access?: Record<string, boolean> | null }; chat_id?: string }) => {
    if (props.chat) return Promise.resolve(props.chat.chat_access ?? undefined);
    const chatId = props.chat_id!;
    const k = `${orgId}|${chatId}`;
    if (!accessOf.has(k)) {
      accessOf.set(
        k,
        db()
          .entities.chat.get({ org_id: orgId, chat_id: chatId })
          .go({ attributes: ['chat_access'] })
          .then((r) => (r.data?.chat_access as Record<string, boolean> | undefined) ?? undefined),
      );
    }
    return accessOf.get(k)!;
  };
  return Promise.allSettled(
    parsed.map(async (p) => {
      if (!p) return 0;
      let rows = connections.get(p.org_id) ?? [];
      if (p.audience) {
        const admins = p.withAdmins ? await adminsOf(p.org_id) : new Set<string>();
        rows = rows.filter((r) => p.audience!.has(r.email ?? '') || admins.has((r.email ?? '').toLowerCase()));
      }
      if (!chatScoped(p)) return broadcastToOrg(p.org_id, p.payload, rows);
      const props = p.payload.properties as unknown as { chat?: Record<string, unknown> & { chat_access?: Record<string, boolean> | null }; chat_id?: string; message?: Message };
      const access = await chatAccessFor(p.org_id, props);
      const mask = !!prefs.get(p.org_id)?.mask_phone_numbers;
      // the common case: everyone may see the chat and nothing is masked
      if (!mask && (!access || Object.keys(access).length === 0)) return broadcastToOrg(p.org_id, p.payload, rows);
      const roles = await rolesOf(p.org_id);
      // connections grouped by the payload they get (most members share one)
      const groups = new Map<string, { payload: unknown; rows: typeof rows }>();
      for (const r of rows) {
        const email = (r.email ?? '').toLowerCase();
        const viewer = { email, role: roles.get(email) ?? ('member' as const) };
        const allowed = canSeeChat({ chat_access: access }, viewer);
        const masked = allowed && mustMask(mask, viewer);
        const key = !allowed ? 'stub' : masked ? 'masked' : 'full';
        if (!groups.has(key)) {
          const ctx = { viewer, maskPhoneNumbers: mask };
          let payload: unknown = p.payload;
          if (key === 'stub') payload = props.chat ? { type: 'chat.updated', properties: { org_id: p.org_id, chat: viewChat(props.chat, ctx), changes: ['chat_access'] }, metadata: p.payload.metadata } : null;
          else if (key === 'masked') {
            payload = {
              ...p.payload,
              properties: { ...props, ...(props.chat ? { chat: viewChat(props.chat, ctx) } : {}), ...(props.message ? { message: viewMessage(props.message, ctx) } : {}) },
            };
          }
          groups.set(key, { payload, rows: [] });
        }
        groups.get(key)!.rows.push(r);
      }
      let sent = 0;
      for (const g of groups.values()) if (g.payload) sent += await broadcastToOrg(p.org_id, g.payload, g.rows);
      return sent;
    }),
  );
});
