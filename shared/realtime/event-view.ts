import { canSeeChat, maskIdentity, maskNumbersInText, maskPhone, mustMask, type Viewer } from '../chat/chat-access.rules.ts';
import { viewChat, viewMessage } from '../chat/chat-view.ts';
import { sealChatIdsIn } from '../chat/chat-id-seal.ts';
import type { Message } from '../message/message.schemas.ts';
import type { EventName } from '../../events/catalog.ts';
import { canSeeTask } from '../task/task.rules.ts';

/**
 * What one connected member is pushed of a domain event (events/catalog.ts), decided in one pure
 * place for every event type: the realtime fan-out (functions/consumers/realtime-fanout.ts) asks it for
 * each member with an open socket. Access and masking come from spec §6 through the same functions
 * the API uses (`canSeeChat`, `mustMask`, `viewChat`, `viewMessage`), so a push never hands out
 * more than a read of the same data.
 *
 * Who may receive an event at all:
 * - nobody who is not an active member of the org now (`viewer` undefined): removed members and
 *   pending invites get nothing, whatever connection rows are left;
 * - `notification.created`: its recipient only; `bulk_job.updated`: the job's creator only;
 *   `phone.session_updated` (WhatsApp Web linking, with the QR): admins only; `contact.*` and
 *   `message.reaction`: nobody (the rules consumer's, not pushed);
 *   `task.*`: admins, the task's assignee and its creator (spec §2: members see only My Tasks);
 * - every event about a chat (message.*, note.*, chat.*, ticket.*, a task or a notification linked
 *   to a chat): only members who may see that chat, judged on the chat's **current** `chat_access`
 *   (read by the caller, never the event's snapshot, which may predate a revocation). A member who
 *   may not see the chat of an event that carries the chat row (message.received, message.sent,
 *   chat.updated, chat.read) is given the chat's stub as a `chat.updated` (`has_access: false`,
 *   spec §6: the list shows it dimmed), nothing else; for the other events, nothing (issue 11: 'a
 *   socket of a member without access receives nothing about that chat'; the API still lists such a
 *   task or notification with its chat part hidden, shared/access/guard.ts, so a reload shows it).
 *
 * Masking (`mask_phone_numbers` on, non-admin viewer), as the guard masks API answers: chats and
 * messages through `viewChat` / `viewMessage`; a ticket's `chat_name`; a task's linked
 * `sender_phone`; numbers written in a notification's title and body (maskNumbersInText).
 *
 * This is the realtime twin of the guard's `view*` functions, kept pure here because the fan-out
 * judges many members at once; it can be pointed at the guard's pure parts when they are split out.
 */

/** An event as pushed on a socket: `{ type, properties, metadata }`. */
export interface PushedEvent {
  type: EventName;
  properties: Record<string, unknown>;
  metadata?: unknown;
}

/** The chat an event is about, as far as its own payload says. */
export type EventChatRef = { chat_id: string } | { ticket_id: string } | undefined;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** The task's link (spec §3 associated_object_metadata) as a chat or ticket reference. */
function taskLink(task: Obj | undefined): EventChatRef {
  const aom = obj(task?.associated_object_metadata);
  if (!aom) return undefined;
  const o = obj(aom.object) ?? {};
  const chatId = aom.type === 'chat' ? str(aom.id) : str(o.chat_id);
  if (chatId) return { chat_id: chatId };
  const ticketId = aom.type === 'ticket' ? (str(o.ticket_id) ?? str(aom.id)) : str(o.ticket_id);
  return ticketId ? { ticket_id: ticketId } : undefined;
}

/**
 * Which chat an event is about: a chat id, a ticket id (a task linked to a ticket: the caller
 * reads the ticket's chat), or undefined for events about no chat (bulk jobs, phone sessions,
 * tasks without a link, notifications without a chat).
 */
export function eventChatRef(e: Pick<PushedEvent, 'type' | 'properties'>): EventChatRef {
  const p = e.properties;
  if (e.type.startsWith('message.') || e.type.startsWith('note.') || e.type.startsWith('chat.')) {
    const id = str(obj(p.chat)?.chat_id) ?? str(p.chat_id) ?? str(obj(p.message)?.chat_id);
    return id ? { chat_id: id } : undefined;
  }
  if (e.type.startsWith('ticket.')) {
    const id = str(obj(p.ticket)?.chat_id);
    return id ? { chat_id: id } : undefined;
  }
  if (e.type.startsWith('task.')) return taskLink(obj(p.task));
  if (e.type === 'notification.created') {
    const id = str(obj(p.notification)?.chat_id);
    return id ? { chat_id: id } : undefined;
  }
  return undefined;
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** Is `viewer` in the event's audience, before any chat access (see the module comment)? */
export function inAudience(viewer: Viewer, e: Pick<PushedEvent, 'type' | 'properties'>): boolean {
  const p = e.properties;
  switch (e.type) {
    case 'notification.created':
      return same(p.email, viewer.email);
    case 'bulk_job.updated':
      return same(obj(p.job)?.created_by, viewer.email);
    case 'phone.session_updated':
      return viewer.role === 'admin';
    // issue 17: contact events feed the rules consumer only; the realtime fan-out does not subscribe to them, and nobody is their audience
    case 'contact.created':
    case 'contact.updated':
    // issue 17: the reaction trigger's event, likewise (sockets get the reaction through message.updated)
    case 'message.reaction':
      return false;
    case 'task.created':
    case 'task.updated':
    case 'task.reminder_due': {
      return canSeeTask(viewer, obj(p.task) ?? {});
    }
    default:
      return true;
  }
}

export interface EventViewContext {
  /** org preference mask_phone_numbers */
  maskPhoneNumbers: boolean;
  /**
   * The current row (or its `chat_access`) of the chat the event is about (eventChatRef, a
   * ticket resolved to its chat). For an event about a chat, `null` or undefined means the chat
   * could not be found: then only admins receive it. Ignored for events about no chat.
   */
  chat?: { chat_access?: Record<string, boolean> | null } | null;
}

/**
 * The payload to push to `viewer` for event `e`, or null when they get nothing.
 * @param viewer the connected member as an active member of the event's org now (email, role),
 *   or undefined when they are not one (removed, invited only, unknown): always null
 * @param e the event as the fan-out read it from the bus (properties already validated against
 *   the catalogue's schema)
 * @param ctx the org's masking preference and the chat's current access (see EventViewContext)
 * @returns the original event object when the viewer gets it unchanged (callers may group
 *   connections by identity), a masked copy, a `chat.updated` stub, or null
 */
export function viewEventFor(viewer: Viewer | undefined, e: PushedEvent, ctx: EventViewContext): PushedEvent | null {
  const out = viewUnsealed(viewer, e, ctx);
  // issue 41 §5: a masked viewer's frame carries no number chat id either (the API seals them the same way)
  const orgId = str(e.properties.org_id);
  return out && viewer && orgId && mustMask(ctx.maskPhoneNumbers, viewer) ? sealChatIdsIn(orgId, out) : out;
}

function viewUnsealed(viewer: Viewer | undefined, e: PushedEvent, ctx: EventViewContext): PushedEvent | null {
  if (!viewer) return null;
  if (!inAudience(viewer, e)) return null;
  const ref = eventChatRef(e);
  const p = e.properties;
  const masks = mustMask(ctx.maskPhoneNumbers, viewer);
  // a chat the caller could not find (or did not give) is for admins only: fail closed
  const allowed = !ref || (ctx.chat == null ? viewer.role === 'admin' : canSeeChat(ctx.chat, viewer));

  if (e.type.startsWith('task.')) {
    if (!allowed) return null;
    const t = obj(p.task)!;
    const link = obj(t.associated_object_metadata);
    const o = obj(link?.object);
    if (!masks || !link || !o || !str(o.sender_phone)) return e;
    return { ...e, properties: { ...p, task: { ...t, associated_object_metadata: { ...link, object: { ...o, sender_phone: maskIdentity(str(o.sender_phone)!) } } } } };
  }

  if (e.type === 'notification.created') {
    if (!allowed) return null;
    if (!masks) return e;
    const n = obj(p.notification)!;
    const maskText = (v: unknown) => (typeof v === 'string' ? maskNumbersInText(v) : v);
    return { ...e, properties: { ...p, notification: { ...n, title: maskText(n.title), body: maskText(n.body) } } };
  }

  if (!allowed) {
    const chat = obj(p.chat);
    if (!chat || ctx.chat == null || !/^(message|chat)\./.test(e.type)) return null;
    // judged on the current access, viewChat gives the stub: no name, members or messages
    const stub = viewChat({ ...chat, chat_access: ctx.chat.chat_access }, { viewer, maskPhoneNumbers: ctx.maskPhoneNumbers });
    return { type: 'chat.updated', properties: { org_id: p.org_id, chat: stub, changes: ['chat_access'] }, metadata: e.metadata };
  }
  if (!masks) return e;
  const vctx = { viewer, maskPhoneNumbers: ctx.maskPhoneNumbers };
  if (/^(message|note|chat)\./.test(e.type)) {
    const chat = obj(p.chat);
    const message = obj(p.message);
    return {
      ...e,
      // the chat judged on its current access (the snapshot's may predate a change)
      properties: { ...p, ...(chat ? { chat: viewChat(ctx.chat ? { ...chat, chat_access: ctx.chat.chat_access } : chat, vctx) } : {}), ...(message ? { message: viewMessage(message as unknown as Message, vctx) } : {}) },
    };
  }
  if (e.type.startsWith('ticket.')) {
    const t = obj(p.ticket)!;
    const name = str(t.chat_name);
    return { ...e, properties: { ...p, ticket: { ...t, chat_name: name ? maskPhone(name) : t.chat_name } } };
  }
  return e;
}
