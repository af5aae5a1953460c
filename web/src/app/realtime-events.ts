/**
 * The app's realtime events: socket frames (`{ type, properties, metadata }`, lib/socket.ts)
 * of the current organization parsed into one typed union (`InboxEvent`). Pure: the bridge
 * (realtime-bridge.ts) writes them into the query cache and re-broadcasts them to subscribers.
 *
 * - message.received / message.sent carry the chat snapshot with the message;
 * - message.status_updated / message.updated and private notes (note.created / note.deleted)
 *   carry only the message (a note never moves the chat in the list);
 * - chat.read / chat.updated; ticket.created|updated|closed; task.created|updated|reminder_due;
 * - notification.created (mine only), bulk_job.updated (my jobs only), phone.session_updated
 *   (admins only), chat.typing (socket-only, shared/realtime/typing.ts).
 */
import type { Chat } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import type { Task } from '#shared/task/task.schemas.ts';
import type { Notification } from '#shared/notification/notification.schemas.ts';
import type { BulkJob } from '#shared/bulk/bulk-job.schemas.ts';
import type { WaWebSessionView } from '#shared/phone/phone.schemas.ts';
import { withTicketField } from '../lib/api.ts';
import type { RealtimeEvent } from '../lib/socket.ts';

export type InboxEvent =
  /** `chat`: the chat snapshot sent with message.received / message.sent */
  | { kind: 'message'; type: string; chatId: string; message: Message; chat?: Chat }
  | { kind: 'chat'; type: string; chat: Chat }
  | { kind: 'ticket'; type: string; ticket: Ticket }
  /** task.created / task.updated (actions) and task.reminder_due (remind_at) */
  | { kind: 'task'; type: string; task: Task; actions?: string[]; remindAt?: number | null }
  /** a teammate started or stopped typing in a chat (chat.typing; `at` epoch ms, server clock) */
  | { kind: 'typing'; chatId: string; email: string; memberName: string | null; state: 'start' | 'stop'; at: number }
  /** an in-app notification for me (notification.created: mentions, assignments, …) */
  /** `fresh`: not loaded before (set by the bridge once the cache has it) */
  | { kind: 'notification'; notification: Notification; fresh?: boolean }
  /** progress of one of my bulk jobs (bulk_job.updated, sent to the job's creator only) */
  | { kind: 'bulk_job'; job: BulkJob }
  /** a WhatsApp Web number's session state, with its QR while linking (phone.session_updated, admins only) */
  | { kind: 'phone_session'; session: WaWebSessionView }
  /** the socket is open again after a drop: whatever is shown may have missed events */
  | { kind: 'resync' };

const MESSAGE_WITH_CHAT = new Set(['message.received', 'message.sent']);
const MESSAGE_ONLY = new Set(['message.status_updated', 'message.updated', 'note.created', 'note.deleted']);
const TICKET_EVENTS = new Set(['ticket.created', 'ticket.updated', 'ticket.closed']);
const TASK_EVENTS = new Set(['task.created', 'task.updated', 'task.reminder_due']);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';

/**
 * One socket frame as an event of organization `orgId`, or null when it is of another org, of
 * an unknown type, or malformed.
 */
export function parseRealtimeEvent(ev: RealtimeEvent, orgId: string): InboxEvent | null {
  const p = ev.properties as { org_id?: string; chat?: Chat; chat_id?: string; message?: Message; ticket?: Ticket; task?: Task; actions?: unknown; remind_at?: unknown };
  if (p.org_id && p.org_id !== orgId) return null;
  if (MESSAGE_WITH_CHAT.has(ev.type) && isObject(p.chat) && isObject(p.message)) {
    return { kind: 'message', type: ev.type, chatId: p.chat.chat_id, message: withTicketField(p.message), chat: p.chat };
  }
  if (MESSAGE_ONLY.has(ev.type) && isObject(p.message)) {
    // message.updated carries the whole message (a detach clears message_ticket_id); a status
    // snapshot may have been read before an attach, so it never touches the ticket field
    const message = ev.type === 'message.updated' ? withTicketField(p.message) : p.message;
    return { kind: 'message', type: ev.type, chatId: p.chat_id ?? p.message.chat_id, message };
  }
  if ((ev.type === 'chat.read' || ev.type === 'chat.updated') && isObject(p.chat)) return { kind: 'chat', type: ev.type, chat: p.chat };
  if (ev.type === 'phone.session_updated') {
    const s = ev.properties as unknown as WaWebSessionView;
    return typeof s.phone_id === 'string' ? { kind: 'phone_session', session: { phone_id: s.phone_id, state: s.state, qr: s.qr ?? null, detail: s.detail ?? null, at: s.at } } : null;
  }
  if (ev.type === 'bulk_job.updated') {
    const job = (ev.properties as { job?: BulkJob }).job;
    return isObject(job) ? { kind: 'bulk_job', job } : null;
  }
  if (ev.type === 'notification.created') {
    const n = (ev.properties as { notification?: Notification }).notification;
    return isObject(n) ? { kind: 'notification', notification: n } : null;
  }
  if (TICKET_EVENTS.has(ev.type) && isObject(p.ticket)) return { kind: 'ticket', type: ev.type, ticket: p.ticket };
  if (ev.type === 'chat.typing' && typeof p.chat_id === 'string') {
    const t = ev.properties as { email?: unknown; member_name?: unknown; state?: unknown; at?: unknown };
    if (typeof t.email !== 'string' || (t.state !== 'start' && t.state !== 'stop')) return null;
    return { kind: 'typing', chatId: p.chat_id, email: t.email, memberName: typeof t.member_name === 'string' ? t.member_name : null, state: t.state, at: typeof t.at === 'number' ? t.at : Date.now() };
  }
  if (TASK_EVENTS.has(ev.type) && isObject(p.task)) {
    return { kind: 'task', type: ev.type, task: p.task, actions: Array.isArray(p.actions) ? p.actions.map(String) : undefined, remindAt: typeof p.remind_at === 'number' ? p.remind_at : null };
  }
  return null;
}
