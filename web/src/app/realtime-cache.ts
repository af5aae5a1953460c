/**
 * What each realtime event does to the query cache of an organization (`applyToCache`, over a
 * QueryClient, no I/O):
 * - message.received / message.sent: the chat snapshot into the chat store (live), the message
 *   into its thread; the folder counts are to be refreshed;
 * - message.status_updated / message.updated / note.*: the message into its thread, the chat's
 *   preview when it is the latest message; a message.updated whose flag or pin disagrees with the
 *   chat we hold (the server changes both, publishes only the message) asks for that chat again;
 * - chat.read / chat.updated: the chat into the store (live); counts to be refreshed;
 * - ticket.*: the ticket into its chat's ticket list (when that list is cached) and into every
 *   cached /tickets list under that list's filters (it may enter, move or leave);
 * - task.*: the task into the task panel's lists (each scope as the viewer `me` sees it);
 * - notification.created: into my notifications (a new unread one counts; `fresh` says it is new);
 * - resync (a reconnect): every query of the org is invalidated (active ones refetch).
 * A pushed chat with a label the cached labels lack is reported (`unknownLabels`).
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Chat, ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import { chatKeys } from '../features/chats/api/keys.ts';
import { EMPTY_STORE, mergeLiveChats, patchPreview, type ChatStore } from '../features/chats/api/chat-store.ts';
import { upsertThread, type ThreadData } from '../features/chats/api/thread-cache.ts';
import { chatIsStaleFor } from '../features/chats/api/messageActions.ts';
import { upsertChatTicket } from '../features/tickets/api/tickets.ts';
import { inScope, taskKeys, upsertTaskPages, type TaskData, type TaskScope } from '../features/tasks/api/task-cache.ts';
import { applyTicketToList, ticketKeys, type TicketData } from '../features/tickets/api/ticket-cache.ts';
import type { TicketFilters } from '../features/tickets/api/tickets.ts';
import { addNotification, notificationKeys, type NotificationData } from '../features/notifications/api/notification-cache.ts';
import type { InboxEvent } from './realtime-events.ts';

/** What an event asks of the bridge besides cache writes. */
export interface CacheEffects {
  /** refresh the folder counts soon (debounced) */
  counts: boolean;
  /** fetch this chat again (our snapshot is stale) */
  refetchChat: string | null;
  /** label ids of pushed chats that the cached labels lack */
  unknownLabels: string[];
  /** a notification event: it was not loaded before (toast it) */
  fresh?: boolean;
}

/** Merge live chat snapshots (socket, our own writes) into the org's chat store at `now` (epoch ms). */
export function mergeLive(qc: QueryClient, orgId: string, chats: Chat[], now = Date.now()): void {
  qc.setQueryData<ChatStore>(chatKeys.store(orgId), (s) => mergeLiveChats(s ?? EMPTY_STORE, chats, now));
}

function unknownLabels(qc: QueryClient, orgId: string, chat: Chat): string[] {
  const labels = qc.getQueryData<ChatLabel[]>(chatKeys.labels(orgId));
  if (!labels) return [];
  return (chat.label_ids ?? []).filter((id) => !labels.some((l) => l.label_id === id));
}

/** Write one event into the query cache of `orgId` as viewer `me` (email) sees it. @returns the follow-ups it asks for */
export function applyToCache(qc: QueryClient, orgId: string, e: InboxEvent, now = Date.now(), me = ''): CacheEffects {
  const out: CacheEffects = { counts: false, refetchChat: null, unknownLabels: [] };
  switch (e.kind) {
    case 'message': {
      qc.setQueryData<ThreadData>(chatKeys.messages(orgId, e.chatId), (d) => upsertThread(d, [e.message]));
      if (e.chat) {
        mergeLive(qc, orgId, [e.chat], now);
        out.counts = true;
        out.unknownLabels = unknownLabels(qc, orgId, e.chat);
        break;
      }
      const store = qc.setQueryData<ChatStore>(chatKeys.store(orgId), (s) => patchPreview(s ?? EMPTY_STORE, e.chatId, e.message, true));
      const known = store?.chats.find((c) => c.chat_id === e.chatId);
      if (e.type === 'message.updated' && known && chatIsStaleFor(known, e.message, now)) out.refetchChat = e.chatId;
      break;
    }
    case 'chat':
      mergeLive(qc, orgId, [e.chat], now);
      out.counts = true;
      out.unknownLabels = unknownLabels(qc, orgId, e.chat);
      break;
    case 'ticket':
      qc.setQueryData<Ticket[]>(chatKeys.tickets(orgId, e.ticket.chat_id), (prev) => (prev ? upsertChatTicket(prev, e.ticket) : prev));
      for (const [key] of qc.getQueriesData<TicketData>({ queryKey: ticketKeys.lists(orgId) })) {
        const filters = key[key.length - 1] as TicketFilters;
        qc.setQueryData<TicketData>(key, (d) => applyTicketToList(d, e.ticket, filters, me));
      }
      break;
    case 'task':
      for (const scope of ['mine', 'all'] as TaskScope[]) qc.setQueryData<TaskData>(taskKeys.list(orgId, scope), (d) => upsertTaskPages(d, e.task, inScope(e.task, scope, me.toLowerCase())));
      break;
    case 'notification': {
      let fresh = true;
      qc.setQueryData<NotificationData>(notificationKeys.list(orgId), (d) => {
        const r = addNotification(d, e.notification);
        fresh = r.fresh;
        return r.data;
      });
      out.fresh = fresh;
      break;
    }
    case 'resync':
      void qc.invalidateQueries({ queryKey: ['orgs', orgId] });
      break;
    default:
      break;
  }
  return out;
}

