import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Chat, ChatLabel } from '#shared/chat/chat.schemas.ts';
import type { Message } from '#shared/message/message.schemas.ts';
import type { Ticket } from '#shared/ticket/ticket.schemas.ts';
import { chatKeys } from '../features/chats/api/keys.ts';
import { EMPTY_STORE, listedChats, type ChatStore } from '../features/chats/api/chat-store.ts';
import { threadMessages, type ThreadData } from '../features/chats/api/thread-cache.ts';
import { applyToCache } from './realtime-cache.ts';
import { parseRealtimeEvent } from './realtime-events.ts';

const ORG = 'org1';
const NOW = Date.UTC(2026, 0, 5, 12);
const chat = (over: Partial<Chat> = {}): Chat => ({
  org_id: ORG,
  chat_id: '1@c.us',
  chat_type: 'user',
  org_phone: '15550001',
  phone_id: 'p',
  latest_message_timestamp: NOW - 60_000,
  latest_message: { unique_id: 'm1', message_type: 'text', from_me: false, ack: 0, timestamp: NOW - 60_000 },
  inbox_state: 'open',
  ...over,
});
const message = (over: Partial<Message> = {}): Message =>
  ({ org_id: ORG, chat_id: '1@c.us', unique_id: 'm2', org_phone: '15550001', phone_id: 'p', body: 'hi', timestamp: NOW, from_me: false, ack: 0, message_type: 'text', ...over }) as Message;
const thread = (items: Message[]): ThreadData => ({ pages: [{ items, cursor: null }], pageParams: [null] });
const store = (qc: QueryClient) => qc.getQueryData<ChatStore>(chatKeys.store(ORG)) ?? EMPTY_STORE;

describe('parseRealtimeEvent', () => {
  it('drops frames of another org and unknown or malformed ones', () => {
    expect(parseRealtimeEvent({ type: 'chat.updated', properties: { org_id: 'other', chat: chat() } }, ORG)).toBeNull();
    expect(parseRealtimeEvent({ type: 'something.else', properties: {} }, ORG)).toBeNull();
    expect(parseRealtimeEvent({ type: 'message.received', properties: { message: message() } }, ORG)).toBeNull();
  });

  it('gives message.received its chat, and message.updated a cleared ticket field', () => {
    const e = parseRealtimeEvent({ type: 'message.received', properties: { org_id: ORG, chat: chat(), message: message() } }, ORG);
    expect(e).toMatchObject({ kind: 'message', chatId: '1@c.us', chat: { chat_id: '1@c.us' } });
    const u = parseRealtimeEvent({ type: 'message.updated', properties: { chat_id: '1@c.us', message: message() } }, ORG);
    expect(u).toMatchObject({ kind: 'message', type: 'message.updated', message: { message_ticket_id: null } });
  });
});

describe('applyToCache', () => {
  it('puts a received message into its thread and its chat into the store as live, asking for counts', () => {
    const qc = new QueryClient();
    qc.setQueryData(chatKeys.messages(ORG, '1@c.us'), thread([message({ unique_id: 'm1', timestamp: NOW - 60_000 })]));
    const pushed = chat({ latest_message_timestamp: NOW, label_ids: ['lbl_new'] });
    qc.setQueryData<ChatLabel[]>(chatKeys.labels(ORG), []);
    const fx = applyToCache(qc, ORG, { kind: 'message', type: 'message.received', chatId: '1@c.us', message: message(), chat: pushed }, NOW);
    expect(fx).toEqual({ counts: true, refetchChat: null, unknownLabels: ['lbl_new'] });
    expect(threadMessages(qc.getQueryData(chatKeys.messages(ORG, '1@c.us'))).map((m) => m.unique_id)).toEqual(['m1', 'm2']);
    expect(store(qc).chats).toEqual([pushed]);
    // live since NOW: in the list of a filter set before, not of one set after
    expect(listedChats(store(qc), new Set(), { state: 'open' }, 'me@x.io', NOW, NOW - 1)).toHaveLength(1);
    expect(listedChats(store(qc), new Set(), { state: 'open' }, 'me@x.io', NOW, NOW + 1)).toHaveLength(0);
  });

  it('patches the preview only for the latest message, and asks for a chat whose flags are stale', () => {
    const qc = new QueryClient();
    qc.setQueryData<ChatStore>(chatKeys.store(ORG), { chats: [chat()], liveAt: {} });
    applyToCache(qc, ORG, { kind: 'message', type: 'message.status_updated', chatId: '1@c.us', message: message({ unique_id: 'old', timestamp: NOW - 90_000 }) }, NOW);
    expect(store(qc).chats[0]!.latest_message?.unique_id).toBe('m1');
    const fx = applyToCache(qc, ORG, { kind: 'message', type: 'message.updated', chatId: '1@c.us', message: message({ unique_id: 'm1', timestamp: NOW - 60_000, ack: 3, flag_status: true }) }, NOW);
    expect(store(qc).chats[0]!.latest_message?.ack).toBe(3);
    expect(fx.refetchChat).toBe('1@c.us');
  });

  it('merges a ticket into its chat list only when that list is cached', () => {
    const qc = new QueryClient();
    const t = { ticket_id: 't1', chat_id: '1@c.us', updated_at: NOW } as unknown as Ticket;
    applyToCache(qc, ORG, { kind: 'ticket', type: 'ticket.created', ticket: t }, NOW);
    expect(qc.getQueryData(chatKeys.tickets(ORG, '1@c.us'))).toBeUndefined();
    qc.setQueryData<Ticket[]>(chatKeys.tickets(ORG, '1@c.us'), []);
    applyToCache(qc, ORG, { kind: 'ticket', type: 'ticket.created', ticket: t }, NOW);
    expect(qc.getQueryData(chatKeys.tickets(ORG, '1@c.us'))).toEqual([t]);
  });

  it('invalidates every query of the org on resync, and no other org', () => {
    const qc = new QueryClient();
    qc.setQueryData(chatKeys.counts(ORG), { open: 1 });
    qc.setQueryData(chatKeys.counts('other'), { open: 1 });
    applyToCache(qc, ORG, { kind: 'resync' }, NOW);
    expect(qc.getQueryState(chatKeys.counts(ORG))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(chatKeys.counts('other'))?.isInvalidated).toBe(false);
  });
});

describe('applyToCache: tasks, ticket lists and notifications', () => {
  it('puts a task into the scopes it belongs to and takes it out of "mine" when reassigned away', async () => {
    const { taskKeys, loadedTasks } = await import('../features/tasks/api/task-cache.ts');
    const qc = new QueryClient();
    const task = (assignee: string) => ({ task_id: 't1', assignee, title: 'x', updated_at: NOW }) as never;
    for (const scope of ['mine', 'all'] as const) qc.setQueryData(taskKeys.list(ORG, scope), { pages: [{ items: [], cursor: null }], pageParams: [null] });
    applyToCache(qc, ORG, { kind: 'task', type: 'task.created', task: task('me@x.io') }, NOW, 'Me@x.io');
    expect(loadedTasks(qc.getQueryData(taskKeys.list(ORG, 'mine')))).toHaveLength(1);
    applyToCache(qc, ORG, { kind: 'task', type: 'task.updated', task: task('other@x.io') }, NOW + 1, 'me@x.io');
    expect(loadedTasks(qc.getQueryData(taskKeys.list(ORG, 'mine')))).toHaveLength(0);
    expect(loadedTasks(qc.getQueryData(taskKeys.list(ORG, 'all')))).toHaveLength(1);
  });

  it('applies a ticket to each cached /tickets list under its filters', async () => {
    const { ticketKeys, loadedTickets } = await import('../features/tickets/api/ticket-cache.ts');
    const { EMPTY_FILTERS } = await import('../features/tickets/api/tickets.ts');
    const qc = new QueryClient();
    const open = { ...EMPTY_FILTERS, status: 'open' };
    const closed = { ...EMPTY_FILTERS, status: 'closed' };
    for (const f of [open, closed]) qc.setQueryData(ticketKeys.list(ORG, f), { pages: [{ items: [], cursor: null }], pageParams: [null] });
    const t = { ticket_id: 'tk1', chat_id: '1@c.us', status: 'open', priority: 2, labels: [], assignee: null, due_date: null, created_at: NOW, updated_at: NOW, subject: 's' } as unknown as Ticket;
    applyToCache(qc, ORG, { kind: 'ticket', type: 'ticket.created', ticket: t }, NOW);
    expect(loadedTickets(qc.getQueryData(ticketKeys.list(ORG, open))).map((x) => x.ticket_id)).toEqual(['tk1']);
    expect(loadedTickets(qc.getQueryData(ticketKeys.list(ORG, closed)))).toEqual([]);
  });

  it('adds a live notification once, counting it unread only the first time', async () => {
    const { notificationKeys, loadedNotifications, unreadOf } = await import('../features/notifications/api/notification-cache.ts');
    const qc = new QueryClient();
    qc.setQueryData(notificationKeys.list(ORG), { pages: [{ notifications: [], cursor: null, unread_count: 2 }], pageParams: [null] });
    const n = { notification_id: 'ntf_1', title: 'T', read_at: null } as never;
    expect(applyToCache(qc, ORG, { kind: 'notification', notification: n }, NOW).fresh).toBe(true);
    expect(applyToCache(qc, ORG, { kind: 'notification', notification: n }, NOW).fresh).toBe(false);
    const data = qc.getQueryData(notificationKeys.list(ORG)) as never;
    expect(loadedNotifications(data)).toHaveLength(1);
    expect(unreadOf(data)).toBe(3);
  });
});
