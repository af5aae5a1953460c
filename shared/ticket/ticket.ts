import { monotonicFactory } from 'ulid';
import type { EntityItem } from 'electrodb';
import type { TicketEntity } from './ticket.entity.ts';
import { toTicketWire } from './ticket-wire.ts';
import { RETRY, retryOnConflict } from '../db/retry.ts';
import { db } from '../db/service.ts';
import { commitWithEvents, type TxEntities, type TxItem } from '../db/transaction.ts';
import { assertActiveMember } from '../member/member.ts';
import { AppError, notFound } from '../errors.ts';
import type { PublishInput } from '../../events/publish.ts';
import { getMessageItem } from '../message/message.ts';
import { toMessageWire } from '../inbox/wire.ts';
import type { Actor } from '../auth/actor.ts';
import { chatGuard } from '../access/guard.ts';
import { withCursor } from '../db/paging.ts';
import type { Message } from '../message/message.schemas.ts';
import {
  DEFAULT_TICKET_SETTINGS,
  type BulkUpdateResult,
  type CreateTicketInput,
  type Ticket,
  type TicketAuditEntry,
  type TicketMessage,
  type TicketSettings,
  type TicketSettingsInput,
  type UpdateTicketInput,
} from './ticket.schemas.ts';
import { badgeDeltas, canAttachToTicket, canCreateTicket, canDetachFromTicket, sortChatTickets, subjectFromMessage } from './ticket.rules.ts';

/**
 * Ticket use cases (tickets issue; spec §3 Ticket, §5 create/attach, §7 attach/detach, §2 badge).
 * Every write is one DynamoDB transaction: the ticket (optimistic `version`), its audit rows, its
 * label index rows, the badge counters (ADD) and, for create/attach/detach, the message's
 * `message_ticket_id` (conditioned, so two agents cannot put one message in two tickets).
 * Each write holds its `ticket.created` / `ticket.updated` / `ticket.closed` in the same transaction (the outbox).
 * Times are epoch **ms**. Any member of the org may work tickets of the chats they may see
 * (spec §6, through the guard, shared/access/guard.ts: a ticket of a restricted chat is 403 on
 * every read and write, and hidden from lists); settings are admin-only. Every ticket and
 * attached message handed out passes the guard's view (masking).
 */

type TicketItem = EntityItem<typeof TicketEntity>;

const MAX_RETRIES = 8;
/** ULIDs that sort in creation order inside one process, also within one millisecond (audit rows). */
const ulid = monotonicFactory();

export { toTicketWire };

const dueKey = (due: number | null | undefined) => (due == null ? 'none' : String(due).padStart(15, '0'));
const assigneeKey = (a: string | null | undefined) => a ?? 'none';

/** Settings of the org, defaults when never saved. */
export async function getTicketSettings(actor: Pick<Actor, 'org_id'>): Promise<TicketSettings> {
  const s = (await db().entities.ticketSettings.get({ org_id: actor.org_id }).go()).data;
  if (!s) return DEFAULT_TICKET_SETTINGS;
  return { labels: s.labels as TicketSettings['labels'], default_priority: s.default_priority as TicketSettings['default_priority'], default_assignee: s.default_assignee };
}

/**
 * PUT /settings/tickets (admins only). New labels (no label_id) get one; names are unique
 * case-insensitively. Deleting a label leaves it on tickets until they are next edited; the UI
 * shows only known labels.
 * @throws AppError 403 ticket_settings.forbidden for members; 400 on a duplicate label name
 */
export async function updateTicketSettings(actor: Actor, input: TicketSettingsInput): Promise<TicketSettings> {
  if (actor.role !== 'admin') throw new AppError('ticket_settings.forbidden', 'Only admins can change ticket settings.', { status: 403 });
  const seen = new Map<string, number>();
  input.labels.forEach((l, i) => {
    const k = l.name.trim().toLowerCase();
    if (seen.has(k)) throw new AppError('validation', `Label name "${l.name}" is used twice.`, { details: [{ field: `labels.${i}.name`, reason: 'is already used by another label' }] });
    seen.set(k, i);
  });
  const settings: TicketSettings = {
    labels: input.labels.map((l) => ({ label_id: l.label_id ?? `tl_${ulid().toLowerCase()}`, name: l.name.trim(), color: l.color.toLowerCase() })),
    default_priority: input.default_priority,
    default_assignee: input.default_assignee,
  };
  await db().entities.ticketSettings.put({ org_id: actor.org_id, ...settings, updated_by: actor.email, updated_at: Date.now() }).go();
  return settings;
}

async function assertLabels(orgId: string, labels: string[] | undefined, field: string): Promise<void> {
  if (!labels?.length) return;
  const known = new Set((await getTicketSettings({ org_id: orgId })).labels.map((l) => l.label_id));
  const bad = labels.find((l) => !known.has(l));
  if (bad) throw new AppError('validation', 'That ticket label does not exist.', { details: [{ field, reason: `unknown label ${bad}` }] });
}

function counterOps(e: TxEntities, orgId: string, before: TicketItem | null, after: TicketItem | null): TxItem[] {
  const deltas = badgeDeltas(
    before && { status: before.status, assignee: before.assignee ?? null },
    after && { status: after.status, assignee: after.assignee ?? null },
  );
  return Object.entries(deltas).map(([email, d]) => e.ticketCounter.update({ org_id: orgId, email }).add({ open_assigned: d }).commit() as TxItem);
}

function auditOp(e: TxEntities, t: { org_id: string; ticket_id: string }, action: TicketAuditEntry['action'], old: Record<string, unknown> | null, next: Record<string, unknown> | null, by: string, at: number): TxItem {
  return e.ticketAudit.create({ org_id: t.org_id, ticket_id: t.ticket_id, audit_id: ulid(at), action, old: old ?? undefined, new: next ?? undefined, by, at }).commit() as TxItem;
}

/** Label rows of a ticket after a write: a fresh copy under each label it has, removed from labels it lost. */
function labelOps(e: TxEntities, before: TicketItem | null, after: TicketItem): TxItem[] {
  const now = after.labels ?? [];
  const gone = (before?.labels ?? []).filter((l) => !now.includes(l));
  return [
    ...now.map((label_id) => e.ticketLabelLink.put({ org_id: after.org_id, label_id, ticket_id: after.ticket_id, ticket: after }).commit() as TxItem),
    ...gone.map((label_id) => e.ticketLabelLink.delete({ org_id: after.org_id, label_id, ticket_id: after.ticket_id }).commit() as TxItem),
  ];
}

const snapshotOf = (m: Record<string, unknown>, by: string, at: number, ticketId: string) => ({
  ticket_id: ticketId,
  chat_id: m.chat_id as string,
  unique_id: m.unique_id as string,
  timestamp: m.timestamp as number,
  body: (m.body as string | undefined) ?? undefined,
  message_type: m.message_type as string,
  from_me: m.from_me as boolean,
  author: (m.author as string | undefined) ?? undefined,
  attached_by: by,
  attached_at: at,
});

/**
 * POST /tickets: a ticket from a message (spec §5: only when the message has no ticket). Unset
 * fields take the org's ticket settings (priority; assignee = the chat's assignee or none).
 * @returns the ticket and the message with its new `message_ticket_id`
 * @throws AppError 404 chat/message not found; 409 ticket.message_taken when the message already
 *   has a ticket (also when another member made one a moment earlier); 400 for an unknown assignee or label
 */
export async function createTicket(actor: Actor, input: CreateTicketInput): Promise<{ ticket: Ticket; message: Message }> {
  const [chat, message, settings] = await Promise.all([
    chatGuard(actor).then((g) => g.requireChat(input.chat_id)),
    getMessageItem(actor.org_id, input.chat_id, input.quoted_message_id),
    getTicketSettings(actor),
  ]);
  const ok = canCreateTicket(message);
  if (!ok.allowed) throw new AppError('ticket.message_taken', ok.reason!, { status: 409 });
  const assignee = input.assignee !== undefined ? input.assignee : settings.default_assignee === 'chat_assignee' ? (chat.assigned_to ?? null) : null;
  if (input.assignee) await assertActiveMember(actor.org_id, input.assignee);
  await assertLabels(actor.org_id, input.labels, 'labels');

  const now = Date.now();
  const item: TicketItem = {
    org_id: actor.org_id,
    ticket_id: `tkt_${ulid(now)}`,
    subject: input.subject ?? subjectFromMessage(message),
    status: 'open',
    priority: input.priority ?? settings.default_priority,
    assignee: assignee ?? undefined,
    assignee_key: assigneeKey(assignee),
    chat_id: chat.chat_id,
    chat_name: chat.chat_name ?? undefined,
    org_phone: message.org_phone,
    phone_id: message.phone_id,
    quoted_message_id: message.unique_id,
    due_date: input.due_date ?? undefined,
    due_key: dueKey(input.due_date),
    labels: input.labels ?? [],
    message_count: 1,
    created_by: actor.email,
    created_at: now,
    last_updated_by: actor.email,
    last_updated_at: now,
    first_assigned_at: assignee ? now : undefined,
    version: 1,
  };
  const msgKey = { org_id: actor.org_id, chat_id: message.chat_id, timestamp: message.timestamp, unique_id: message.unique_id };
  const ticket = toTicketWire(item);
  const wireMessage = toMessageWire({ ...message, message_ticket_id: item.ticket_id });
  // the ticket, the message's link and both events in one transaction (the outbox)
  const committed = await commitWithEvents((e) => ({
    events: [
      { name: 'ticket.created', properties: { org_id: actor.org_id, ticket }, actor: `user:${actor.email}` },
      { name: 'message.updated', properties: { org_id: actor.org_id, chat_id: message.chat_id, message: wireMessage }, actor: `user:${actor.email}` },
    ],
    items: [
        e.ticket.create(item).commit(),
        e.message
          .patch(msgKey)
          .set({ message_ticket_id: item.ticket_id })
          .where(({ message_ticket_id }, { notExists }) => notExists(message_ticket_id))
          .commit(),
        e.ticketMessage.create({ org_id: actor.org_id, ...snapshotOf(message, actor.email, now, item.ticket_id) }).commit(),
        auditOp(e, item, 'TICKET_CREATED', null, { subject: item.subject, status: item.status, priority: item.priority, assignee: assignee ?? null, due_date: item.due_date ?? null, labels: item.labels, quoted_message_id: item.quoted_message_id }, actor.email, now),
        ...labelOps(e, null, item),
        ...counterOps(e, actor.org_id, null, item),
      ] as TxItem[],
  }));
  if (!committed) throw new AppError('ticket.message_taken', 'This message already belongs to a ticket.', { status: 409 });
  const guard = await chatGuard(actor);
  return { ticket: guard.viewTicket(ticket), message: guard.viewMessage(wireMessage) };
}

/**
 * A ticket of the actor's org whose chat the actor may see (the guard).
 * @throws AppError 404 ticket.not_found; 403 chat.no_access
 */
async function loadTicket(actor: Actor, ticketId: string): Promise<TicketItem> {
  const t = (await db().entities.ticket.get({ org_id: actor.org_id, ticket_id: ticketId }).go()).data;
  if (!t) throw notFound('ticket');
  await (await chatGuard(actor)).assertChat(t.chat_id);
  return t;
}

/** GET /tickets/{ticket_id}: the ticket and its attached messages in conversation order. @throws 404 ticket.not_found; 403 chat.no_access */
export async function getTicket(actor: Actor, ticketId: string): Promise<{ ticket: Ticket; messages: TicketMessage[] }> {
  const t = await loadTicket(actor, ticketId);
  const [msgs, guard] = await Promise.all([db().entities.ticketMessage.query.byTicket({ org_id: actor.org_id, ticket_id: ticketId }).go({ pages: 'all' }), chatGuard(actor)]);
  return { ticket: guard.viewTicket(toTicketWire(t)), messages: msgs.data.map(({ org_id: _o, ...m }) => guard.viewTicketMessage({ ...m, body: m.body ?? null, author: m.author ?? null })) };
}

/** Field changes of an update: audit action and the before/after of that field. */
const FIELD_ACTIONS = {
  subject: 'SUBJECT_CHANGED',
  status: 'STATUS_CHANGED',
  priority: 'PRIORITY_CHANGED',
  assignee: 'ASSIGNEE_CHANGED',
  due_date: 'DUE_DATE_CHANGED',
  labels: 'LABELS_CHANGED',
} as const satisfies Record<keyof UpdateTicketInput, TicketAuditEntry['action']>;

type Change = { field: keyof typeof FIELD_ACTIONS; old: unknown; new: unknown };

function diff(t: TicketItem, input: UpdateTicketInput): Change[] {
  const current: Record<keyof typeof FIELD_ACTIONS, unknown> = {
    subject: t.subject,
    status: t.status,
    priority: t.priority,
    assignee: t.assignee ?? null,
    due_date: t.due_date ?? null,
    labels: t.labels ?? [],
  };
  const out: Change[] = [];
  for (const field of Object.keys(FIELD_ACTIONS) as Array<keyof typeof FIELD_ACTIONS>) {
    const v = input[field];
    if (v === undefined) continue;
    if (JSON.stringify(v) !== JSON.stringify(current[field])) out.push({ field, old: current[field], new: v });
  }
  return out;
}

/**
 * PATCH /tickets/{ticket_id}. Fields that do not change are ignored (no audit row, no event).
 * Closing stamps `closed_at`; reopening clears it. The first assignment stamps `first_assigned_at`.
 * Retries a lost optimistic-lock race (another member's write) up to 8 times.
 * @throws AppError 404 ticket.not_found; 403 chat.no_access; 400 unknown assignee/label; 409 ticket.busy after 8 lost races
 */
export async function updateTicket(actor: Actor, ticketId: string, input: UpdateTicketInput): Promise<Ticket> {
  if (input.assignee) await assertActiveMember(actor.org_id, input.assignee);
  await assertLabels(actor.org_id, input.labels, 'labels');
  return retryOnConflict(`ticket ${ticketId}`, async () => {
    const t = await loadTicket(actor, ticketId);
    const guard = await chatGuard(actor);
    const changes = diff(t, input);
    if (!changes.length) return guard.viewTicket(toTicketWire(t));
    const now = Date.now();
    const next: TicketItem = { ...t, last_updated_by: actor.email, last_updated_at: now, version: t.version + 1 };
    for (const c of changes) (next as Record<string, unknown>)[c.field] = c.new ?? undefined;
    next.assignee_key = assigneeKey(next.assignee);
    next.due_key = dueKey(next.due_date);
    if (next.status === 'closed' && t.status !== 'closed') next.closed_at = now;
    if (next.status !== 'closed') next.closed_at = undefined;
    if (next.assignee && !t.first_assigned_at) next.first_assigned_at = now;
    const ticket = toTicketWire(next);
    const closed = t.status !== 'closed' && next.status === 'closed';
    const committed = await commitWithEvents((e) => ({
      items: [
          e.ticket
            .put(next)
            .where(({ version }, { eq }) => eq(version, t.version))
            .commit(),
          ...changes.map((c) => auditOp(e, t, FIELD_ACTIONS[c.field], { [c.field]: c.old }, { [c.field]: c.new }, actor.email, now)),
          ...labelOps(e, t, next),
          ...counterOps(e, actor.org_id, t, next),
        ] as TxItem[],
      events: [{ name: closed ? 'ticket.closed' : 'ticket.updated', properties: { org_id: actor.org_id, ticket, changes: changes.map((c) => c.field) }, actor: `user:${actor.email}` }],
    }));
    if (!committed) return RETRY;
    return guard.viewTicket(ticket);
  }, { attempts: MAX_RETRIES, onExhausted: () => {
    throw new AppError('ticket.busy', 'Someone else is changing this ticket. Please try again.', { status: 409 });
  } });
}

/**
 * POST /tickets/bulk: the same change on up to 100 tickets; each succeeds or fails on its own.
 * @returns updated tickets and `failed: [{ ticket_id, reason }]`
 */
export async function bulkUpdateTickets(actor: Actor, input: { ticket_ids: string[]; status?: Ticket['status']; assignee?: string | null }): Promise<BulkUpdateResult> {
  if (input.assignee) await assertActiveMember(actor.org_id, input.assignee);
  const change: UpdateTicketInput = { ...(input.status !== undefined && { status: input.status }), ...(input.assignee !== undefined && { assignee: input.assignee }) };
  const ids = [...new Set(input.ticket_ids)];
  const out: BulkUpdateResult = { updated: [], failed: [] };
  // a few at a time: each is a read and a transaction; DynamoDB throttles nothing at this size
  for (let i = 0; i < ids.length; i += 8) {
    const settled = await Promise.allSettled(ids.slice(i, i + 8).map((id) => updateTicket(actor, id, change)));
    settled.forEach((s, j) => {
      if (s.status === 'fulfilled') out.updated.push(s.value);
      else out.failed.push({ ticket_id: ids[i + j]!, reason: s.reason instanceof AppError ? s.reason.message : 'Could not update this ticket. Please try again.' });
    });
  }
  return out;
}

/**
 * PUT /chats/{chat_id}/messages/{unique_id}/ticket (spec §7 attach or detach: message_ticket_id,
 * unique_id). A ticket id attaches (spec §5: the chat must have that open ticket and the message
 * none); null detaches from whatever ticket it is in (the message a ticket was made from stays).
 * @throws AppError 404 message/ticket; 409 ticket.message_taken; 400 ticket.closed / ticket.other_chat / ticket.quoted_message
 */
export async function setMessageTicket(actor: Actor, chatId: string, uniqueId: string, ticketId: string | null): Promise<{ ticket: Ticket; message: Message }> {
  return retryOnConflict(`message ${uniqueId} (ticket)`, async () => {
    const message = await getMessageItem(actor.org_id, chatId, uniqueId);
    const targetId = ticketId ?? message.message_ticket_id;
    if (!targetId) throw new AppError('ticket.not_attached', 'This message is not in a ticket.', { status: 400, details: [{ field: 'params.unique_id', reason: 'is not in a ticket' }] });
    const t = await loadTicket(actor, targetId);
    const msgKey = { org_id: actor.org_id, chat_id: chatId, timestamp: message.timestamp, unique_id: uniqueId };
    const now = Date.now();
    const attach = ticketId !== null;
    if (attach) {
      if (t.chat_id !== chatId) throw new AppError('ticket.other_chat', 'That ticket belongs to another chat.', { status: 400, details: [{ field: 'message_ticket_id', reason: 'belongs to another chat' }] });
      const ok = canAttachToTicket(message, [t]);
      if (!ok.allowed) throw new AppError(message.message_ticket_id ? 'ticket.message_taken' : 'ticket.closed', message.message_ticket_id ? ok.reason! : 'That ticket is closed.', { status: message.message_ticket_id ? 409 : 400, details: [{ field: 'message_ticket_id', reason: message.message_ticket_id ? 'the message already has a ticket' : 'is closed' }] });
    } else {
      const ok = canDetachFromTicket({ unique_id: uniqueId, message_ticket_id: message.message_ticket_id }, t);
      if (!ok.allowed) throw new AppError('ticket.quoted_message', ok.reason!, { status: 400, details: [{ field: 'params.unique_id', reason: ok.reason! }] });
    }
    const next: TicketItem = { ...t, message_count: Math.max(1, t.message_count + (attach ? 1 : -1)), last_updated_by: actor.email, last_updated_at: now, version: t.version + 1 };
    const ticket = toTicketWire(next);
    const wireMessage = toMessageWire({ ...message, message_ticket_id: attach ? t.ticket_id : null });
    const events: PublishInput[] = [
      { name: 'ticket.updated', properties: { org_id: actor.org_id, ticket, changes: ['messages'] }, actor: `user:${actor.email}` },
      { name: 'message.updated', properties: { org_id: actor.org_id, chat_id: chatId, message: wireMessage }, actor: `user:${actor.email}` },
    ];
    const committed = await commitWithEvents((e) => ({
      events,
      items: [
          e.ticket
            .put(next)
            .where(({ version }, { eq }) => eq(version, t.version))
            .commit(),
          attach
            ? e.message
                .patch(msgKey)
                .set({ message_ticket_id: t.ticket_id })
                .where(({ message_ticket_id }, { notExists }) => notExists(message_ticket_id))
                .commit()
            : e.message
                .patch(msgKey)
                .remove(['message_ticket_id'])
                .where(({ message_ticket_id }, { eq }) => eq(message_ticket_id, t.ticket_id))
                .commit(),
          attach
            ? e.ticketMessage.put({ org_id: actor.org_id, ...snapshotOf(message, actor.email, now, t.ticket_id) }).commit()
            : e.ticketMessage.delete({ org_id: actor.org_id, ticket_id: t.ticket_id, timestamp: message.timestamp, unique_id: uniqueId }).commit(),
          ...labelOps(e, t, next),
          auditOp(e, t, attach ? 'MESSAGE_ATTACHED' : 'MESSAGE_DETACHED', null, { unique_id: uniqueId, body: message.body?.slice(0, 200) ?? null }, actor.email, now),
        ] as TxItem[],
    }));
    if (!committed) return RETRY;
    const guard = await chatGuard(actor);
    return { ticket: guard.viewTicket(ticket), message: guard.viewMessage(wireMessage) };
  }, { attempts: MAX_RETRIES, onExhausted: () => {
    throw new AppError('ticket.busy', 'Someone else is changing this ticket. Please try again.', { status: 409 });
  } });
}

/** GET /chats/{chat_id}/tickets: the chat's tickets, open and in progress first (index byChat). @throws 404 chat.not_found; 403 chat.no_access */
export async function listChatTickets(actor: Actor, chatId: string): Promise<Ticket[]> {
  const guard = await chatGuard(actor);
  await guard.requireChat(chatId);
  const res = await db().entities.ticket.query.byChat({ org_id: actor.org_id, chat_id: chatId }).go({ order: 'desc', pages: 'all' });
  return sortChatTickets(res.data.map((t) => guard.viewTicket(toTicketWire(t))));
}

/** GET /tickets/badge: tickets assigned to the actor that are open or in progress (a counter kept on write). */
export async function getTicketBadge(actor: Actor): Promise<number> {
  const c = (await db().entities.ticketCounter.get({ org_id: actor.org_id, email: actor.email }).go()).data;
  return Math.max(0, c?.open_assigned ?? 0);
}

/** GET /tickets/{ticket_id}/audit: newest first, cursor paged (50). @throws 404 ticket.not_found; 403 chat.no_access; 400 query.cursor */
export async function listTicketAudit(actor: Actor, ticketId: string, cursor?: string): Promise<{ entries: TicketAuditEntry[]; cursor: string | null }> {
  await loadTicket(actor, ticketId);
  const res = await withCursor(cursor, () => db().entities.ticketAudit.query.byTicket({ org_id: actor.org_id, ticket_id: ticketId }).go({ order: 'desc', limit: 50, cursor: cursor ?? null }));
  return {
    entries: res.data.map((a) => ({
      ticket_id: a.ticket_id,
      audit_id: a.audit_id,
      action: a.action as TicketAuditEntry['action'],
      old: (a.old as Record<string, unknown>) ?? null,
      new: (a.new as Record<string, unknown>) ?? null,
      by: a.by,
      at: a.at,
    })),
    cursor: res.cursor ?? null,
  };
}

/**
 * First response (ticket-first-response consumer, on `message.sent`): the first member reply in a
 * chat after a ticket was made stamps that ticket's `first_response_at` / `first_response_time`.
 * Idempotent: a ticket already stamped is left alone; private notes do not count.
 */
export async function recordFirstResponse(orgId: string, chatId: string, message: { timestamp: number; from_me: boolean; is_private_note?: boolean | null; author?: string | null }): Promise<number> {
  if (!message.from_me || message.is_private_note) return 0;
  const tickets = (await db().entities.ticket.query.byChat({ org_id: orgId, chat_id: chatId }).go({ pages: 'all' })).data;
  let stamped = 0;
  for (const t of tickets) {
    if (t.first_response_at || t.created_at > message.timestamp) continue;
    const next: TicketItem = { ...t, first_response_at: message.timestamp, first_response_time: message.timestamp - t.created_at, version: t.version + 1 };
    const committed = await commitWithEvents((e) => ({
      items: [
          e.ticket
            .put(next)
            .where(({ version }, { eq }) => eq(version, t.version))
            .commit(),
          ...labelOps(e, t, next),
          auditOp(e, t, 'FIRST_RESPONSE', null, { first_response_at: next.first_response_at, first_response_time: next.first_response_time, by: message.author ?? null }, 'system', Date.now()),
        ] as TxItem[],
      events: [{ name: 'ticket.updated', properties: { org_id: orgId, ticket: toTicketWire(next), changes: ['first_response_at'] }, actor: 'system', id: `ticket.first_response:${t.ticket_id}` }],
    }));
    if (!committed) throw new Error(`ticket ${t.ticket_id} changed while stamping its first response; retry`);
    stamped++;
  }
  return stamped;
}
