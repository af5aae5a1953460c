/**
 * Web push (issue 21; spec §3 Notification subscription, §4 Notification toggle and Sign-out, §7
 * Notifications): registering devices, and pushing to them when something happens that a member
 * should hear about while Chorus is closed.
 *
 * One row per (org, member, device) (push-subscription.entity.ts). Pushes go out for:
 *   - message.received: a customer's message in a chat assigned to the member, or in an unassigned
 *     chat for members whose preference says so (never for a muted chat);
 *   - notification.created: a mention in a private note, a chat assigned, a snoozed chat back;
 *   - task.reminder_due: the task's assignee (else its creator);
 *   - ticket.created / ticket.updated with an assignee change: the new assignee (not when they
 *     assigned it themselves).
 * Every push passes the recipient's access and masking guard (shared/access/guard.ts): nothing is
 * pushed about a chat the member may not open, and numbers are masked for members of an org that
 * masks them. Then the preferences (push.rules.ts): what they want, the device's switch, quiet
 * hours. A push service answering 404 or 410 means the subscription is gone: its row is deleted.
 */
import type { EntityItem } from 'electrodb';
import { db } from '../db/service.ts';
import { AppError, notFound } from '../errors.ts';
import { chatGuard, type ChatGuard } from '../access/guard.ts';
import type { Actor } from '../auth/actor.ts';
import { maskNumbersInText } from '../chat/chat-access.rules.ts';
import { sealChatIdsIn } from '../chat/chat-id-seal.ts';
import { getUserPreferences } from '../user/preferences.ts';
import { log } from '../log.ts';
import { orgCache } from '../org/org-cache.ts';
import type { Notification } from '../notification/notification.schemas.ts';
import type { PushSubscriptionEntity } from './push-subscription.entity.ts';
import { clip, isGoneStatus, shouldPush, type PushSubject } from './push.rules.ts';
import { endpointAllowed, sendWebPush } from './sender.ts';
import type { PushDevice, PushPayload, SubscribeInput, UnsubscribeInput } from './push.schemas.ts';

type Row = EntityItem<typeof PushSubscriptionEntity>;

const toDevice = (r: Row): PushDevice => ({ device_id: r.device_id, device_type: r.device_type, created_at: r.created_at, updated_at: r.updated_at });

const ownEmail = (actor: Actor, email: string): void => {
  if (email.toLowerCase() !== actor.email.toLowerCase()) {
    throw new AppError('validation.failed', 'email: must be your own email', { status: 400, details: [{ field: 'email', reason: 'must be your own email' }] });
  }
};

/** Rows of one device in an org, whoever registered it (index byDevice). */
async function rowsOfDevice(orgId: string, deviceId: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const res: { data: Row[]; cursor: string | null } = await db().entities.pushSubscription.query.byDevice({ org_id: orgId, device_id: deviceId }).go({ cursor, limit: 100 });
    rows.push(...res.data);
    cursor = res.cursor ?? null;
  } while (cursor);
  return rows;
}

async function deleteRows(rows: Array<Pick<Row, 'org_id' | 'email' | 'device_id'>>): Promise<number> {
  await Promise.all(rows.map((r) => db().entities.pushSubscription.delete({ org_id: r.org_id, email: r.email, device_id: r.device_id }).go()));
  for (const orgId of new Set(rows.map((r) => r.org_id))) devicesInOrg.forget(orgId);
  return rows.length;
}

/**
 * Does any member of the org have a registered device? One Query of at most one row, cached per
 * process for 5 s (org-cache.ts) and forgotten by this process's subscribe/unsubscribe: the web-push
 * consumer's `relevant` test, so an org without devices costs no table call per event. A device
 * registered in another process gets pushes within 5 s.
 */
const devicesInOrg = orgCache(async (orgId) => (await db().entities.pushSubscription.query.byOrg({ org_id: orgId }).go({ limit: 1, attributes: ['email'] })).data.length > 0);

/** See devicesInOrg. */
export async function hasPushDevices(orgId: string): Promise<boolean> {
  return devicesInOrg.get(orgId);
}

/**
 * spec §7 POST private/notifications/subscribe: register (or refresh) this device for the actor
 * in this org. The device's rows of other members of the org are removed: a browser's push
 * subscription reaches whoever uses it now, so it must not keep delivering someone else's pushes.
 * @throws AppError 400 `email` when it is not the actor's; 400 `subscription.endpoint` when it is not a browser push service
 */
export async function subscribeDevice(actor: Actor, input: SubscribeInput, now = Date.now()): Promise<PushDevice> {
  ownEmail(actor, input.email);
  if (!endpointAllowed(input.subscription.endpoint)) {
    throw new AppError('validation.failed', 'subscription.endpoint: must be a browser push service', { status: 400, details: [{ field: 'subscription.endpoint', reason: 'must be a browser push service' }] });
  }
  const others = (await rowsOfDevice(actor.org_id, input.device_id)).filter((r) => r.email !== actor.email.toLowerCase());
  await deleteRows(others);
  const existing = (await db().entities.pushSubscription.get({ org_id: actor.org_id, email: actor.email, device_id: input.device_id }).go()).data;
  const row = {
    org_id: actor.org_id,
    email: actor.email,
    device_id: input.device_id,
    device_type: input.device_type,
    endpoint: input.subscription.endpoint,
    p256dh: input.subscription.keys.p256dh,
    auth: input.subscription.keys.auth,
    ...(input.subscription.expirationTime ? { expiration_time: input.subscription.expirationTime } : {}),
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  await db().entities.pushSubscription.put(row).go();
  devicesInOrg.forget(actor.org_id);
  return toDevice(row as Row);
}

/**
 * spec §7 POST private/notifications/unsubscribe: remove the actor's row of this device (the
 * device_type is the spec's field; the row is found by member and device).
 * @returns how many rows were removed (0 or 1)
 * @throws AppError 400 `email` when it is not the actor's
 */
export async function unsubscribeDevice(actor: Actor, input: UnsubscribeInput): Promise<number> {
  ownEmail(actor, input.email);
  const row = (await db().entities.pushSubscription.get({ org_id: actor.org_id, email: actor.email, device_id: input.device_id }).go()).data;
  return row ? deleteRows([row]) : 0;
}

/**
 * spec §7 POST private/notifications/unsubscribe-all-for-device (sign-out, spec §4): remove every
 * row of this device in this org, whoever registered it (the device id is only known to the
 * browser that holds the subscription).
 * @returns how many rows were removed
 */
export async function unsubscribeAllForDevice(actor: Actor, deviceId: string): Promise<number> {
  return deleteRows(await rowsOfDevice(actor.org_id, deviceId));
}

/** The devices of one member in an org (index byOrg, begins_with email). */
export async function devicesOf(orgId: string, email: string): Promise<Row[]> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  do {
    const res: { data: Row[]; cursor: string | null } = await db().entities.pushSubscription.query.byOrg({ org_id: orgId, email: email.toLowerCase() }).go({ cursor, limit: 100 });
    rows.push(...res.data);
    cursor = res.cursor ?? null;
  } while (cursor);
  return rows;
}

/** The members of an org with at least one device (index byOrg, keys only, paged). */
async function subscribedEmails(orgId: string): Promise<string[]> {
  const emails = new Set<string>();
  let cursor: string | null = null;
  do {
    const res: { data: Array<{ email: string }>; cursor: string | null } = await db().entities.pushSubscription.query.byOrg({ org_id: orgId }).go({ cursor, limit: 500, attributes: ['email'] });
    for (const r of res.data) emails.add(r.email);
    cursor = res.cursor ?? null;
  } while (cursor);
  return [...emails];
}

/**
 * Push `payload` to the devices of one member that `subject` passes for (push.rules.ts
 * shouldPush). Rows answered 404/410 are deleted; other failures are logged and skipped (one
 * broken device must not keep the others from their push, nor retry the whole event).
 * @returns devices pushed to, and rows removed
 */
export async function pushToDevices(rows: Row[], subject: PushSubject, payload: PushPayload, now = Date.now()): Promise<{ sent: number; removed: number }> {
  if (!rows.length) return { sent: 0, removed: 0 };
  const prefs = await getUserPreferences(rows[0]!.email);
  let sent = 0;
  let removed = 0;
  await Promise.all(
    rows.map(async (row) => {
      if (!shouldPush(subject, prefs, row.device_type, now)) return;
      try {
        const { status } = await sendWebPush(row, payload);
        if (isGoneStatus(status)) {
          removed += await deleteRows([row]);
          log('info', 'push.subscription_gone', { org_id: row.org_id, device_id: row.device_id, status });
        } else if (status >= 200 && status < 300) sent++;
        else log('warn', 'push.rejected', { org_id: row.org_id, device_id: row.device_id, status });
      } catch (e) {
        log('warn', 'push.failed', { org_id: row.org_id, device_id: row.device_id, error: String((e as Error).message ?? e) });
      }
    }),
  );
  return { sent, removed };
}

/**
 * POST …/notifications/test: a test push to one of the actor's devices (ignores quiet hours and
 * the switches: the user asked for it).
 * @throws AppError 404 device.not_found when the actor has no such device in this org
 */
export async function sendTestPush(actor: Actor, deviceId: string, now = Date.now()): Promise<{ sent: number; removed: number }> {
  const row = (await db().entities.pushSubscription.get({ org_id: actor.org_id, email: actor.email, device_id: deviceId }).go()).data;
  if (!row) throw notFound('device');
  return pushToDevices([row], { kind: 'test' }, { kind: 'test', title: 'Chorus', body: 'Notifications are working on this device.', url: '/settings/notifications', org_id: actor.org_id, chat_id: null, tag: `test:${now}`, sent_at: now }, now);
}

/** The recipient as an actor (active members only), for their guard. */
async function actorOf(orgId: string, email: string): Promise<Actor | null> {
  const m = (await db().entities.member.get({ org_id: orgId, email: email.toLowerCase() }).go()).data;
  if (!m || m.is_active === false) return null;
  return { email: m.email, user_id: m.user_id ?? '', org_id: orgId, role: m.role };
}

/** One push to consider: who, about what, and the text as that member may see it. */
interface Candidate {
  email: string;
  chatId: string | null;
  subject: PushSubject;
  build: (guard: ChatGuard) => Omit<PushPayload, 'org_id' | 'chat_id' | 'sent_at'>;
}

/** Guard, then preferences, then send; for each candidate. */
async function deliver(orgId: string, candidates: Candidate[], now: number): Promise<{ sent: number; removed: number }> {
  let sent = 0;
  let removed = 0;
  for (const c of candidates) {
    const rows = await devicesOf(orgId, c.email);
    if (!rows.length) continue;
    const actor = await actorOf(orgId, c.email);
    if (!actor) continue;
    const guard = await chatGuard(actor);
    // never push about a chat the member may not open (a missing chat: nothing to hide, nothing to open either)
    if (c.chatId && !(await guard.visibleChatIds([c.chatId])).has(c.chatId)) continue;
    const p = c.build(guard);
    const payload = { ...p, org_id: orgId, chat_id: c.chatId, sent_at: now };
    // issue 41 §5: a masked member's device gets the chat's sealed id (url, tag, chat_id), as the API gives it
    const r = await pushToDevices(rows, c.subject, guard.masks ? sealChatIdsIn(orgId, payload) : payload, now);
    sent += r.sent;
    removed += r.removed;
  }
  return { sent, removed };
}

/** Text as the member may see it: numbers masked when their guard masks (spec §6 mask_phone_numbers). */
const shown = (guard: ChatGuard, text: string): string => (guard.masks ? maskNumbersInText(text) : text);
const chatHref = (chatId: string) => `/chats/${encodeURIComponent(chatId)}`;

/** What a message says in a push (media messages by their type). */
function messagePreview(m: { body?: string | null; message_type?: string | null }): string {
  if (m.body) return clip(m.body);
  const t = m.message_type ?? 'message';
  const names: Record<string, string> = { image: '📷 Photo', video: '🎥 Video', audio: '🎵 Audio', ptt: '🎤 Voice message', document: '📄 Document', sticker: 'Sticker' };
  return names[t] ?? 'New message';
}

/** The events the push consumer receives (events/catalog.ts subscription 'web-push'). */
export type PushEvent =
  | { name: 'message.received'; properties: { org_id: string; chat: { chat_id: string }; message: { unique_id?: string; body?: string | null; message_type?: string | null; from_me?: boolean | null; is_private_note?: boolean | null } }; id: string; actor: string }
  | { name: 'notification.created'; properties: { org_id: string; email: string; notification: Notification }; id: string; actor: string }
  | { name: 'task.reminder_due'; properties: { org_id: string; task: { task_id: string; title: string; assignee: string | null; created_by: string; associated_object_metadata?: { id: string; type: string; object?: { chat_id?: string | null } | null } | null }; remind_at: number }; id: string; actor: string }
  | { name: 'ticket.created' | 'ticket.updated'; properties: { org_id: string; ticket: { ticket_id: string; subject: string; chat_id: string; assignee: string | null }; changes?: string[] }; id: string; actor: string };

/** The email in an event actor ('user:<email>'), or null for 'system'. */
const actorEmail = (actor: string): string | null => (actor.startsWith('user:') ? actor.slice(5).toLowerCase() : null);

/**
 * The web-push consumer's work for one event (see the module comment for who gets what).
 * @returns devices pushed to and stale rows removed
 */
export async function pushForEvent(ev: PushEvent, now = Date.now()): Promise<{ sent: number; removed: number }> {
  const orgId = ev.properties.org_id;
  switch (ev.name) {
    case 'message.received': {
      const { message, chat: snap } = ev.properties;
      if (message.from_me || message.is_private_note) return { sent: 0, removed: 0 };
      const chat = (await db().entities.chat.get({ org_id: orgId, chat_id: snap.chat_id }).go()).data;
      if (!chat) return { sent: 0, removed: 0 };
      const assignee = chat.assigned_to ? chat.assigned_to.toLowerCase() : null;
      const emails = assignee ? [assignee] : await subscribedEmails(orgId);
      const name = chat.chat_name || chat.chat_id.replace(/@.*$/, '');
      return deliver(
        orgId,
        emails.map((email) => ({
          email,
          chatId: chat.chat_id,
          subject: { kind: 'new_message', assignment: assignee ? 'me' : 'unassigned', chatMuted: !!chat.is_muted },
          build: (g) => ({ kind: 'new_message', title: shown(g, name), body: shown(g, messagePreview(message)), url: chatHref(chat.chat_id), tag: `chat:${chat.chat_id}` }),
        })),
        now,
      );
    }
    case 'notification.created': {
      const n = ev.properties.notification;
      const kind = n.kind === 'mention' ? 'mention' : n.kind === 'assigned' ? 'chat_assigned' : n.kind === 'snooze_woke' ? 'snooze_woke' : null;
      if (!kind) return { sent: 0, removed: 0 };
      const chatId = n.chat_id ?? null;
      return deliver(
        orgId,
        [
          {
            email: ev.properties.email,
            chatId,
            subject: { kind },
            build: (g) => {
              const v = g.viewNotification(n, chatId ? new Set([chatId]) : undefined);
              return { kind, title: v.title, body: clip(v.body), url: chatId ? chatHref(chatId) : '/chats', tag: `ntf:${n.notification_id}` };
            },
          },
        ],
        now,
      );
    }
    case 'task.reminder_due': {
      const t = ev.properties.task;
      const link = t.associated_object_metadata;
      const chatId = link?.object?.chat_id ?? (link?.type === 'chat' ? link.id : null);
      return deliver(
        orgId,
        [
          {
            email: t.assignee ?? t.created_by,
            chatId,
            subject: { kind: 'task_reminder' },
            build: (g) => ({ kind: 'task_reminder', title: 'Task reminder', body: shown(g, clip(t.title)), url: chatId ? chatHref(chatId) : '/chats', tag: `task:${t.task_id}:${ev.properties.remind_at}` }),
          },
        ],
        now,
      );
    }
    case 'ticket.created':
    case 'ticket.updated': {
      const t = ev.properties.ticket;
      const assigned = ev.name === 'ticket.created' || (ev.properties.changes ?? []).includes('assignee');
      if (!assigned || !t.assignee || t.assignee.toLowerCase() === actorEmail(ev.actor)) return { sent: 0, removed: 0 };
      return deliver(
        orgId,
        [
          {
            email: t.assignee,
            chatId: t.chat_id,
            subject: { kind: 'ticket_assigned' },
            build: (g) => ({ kind: 'ticket_assigned', title: 'Ticket assigned to you', body: shown(g, clip(t.subject)), url: `/tickets?ticket=${encodeURIComponent(t.ticket_id)}`, tag: `ticket:${t.ticket_id}:assignee` }),
          },
        ],
        now,
      );
    }
  }
}
