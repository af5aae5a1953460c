import type { z } from 'zod';
import { detailOf } from './contracts/envelope.ts';
import { MessageReactionV1, MessageReceivedV1, MessageSentV1, MessageStatusUpdatedV1, MessageUpdatedV1 } from './contracts/message.ts';
import { ChatReadV1, ChatUpdatedV1 } from './contracts/chat.ts';
import { TicketClosedV1, TicketCreatedV1, TicketUpdatedV1 } from './contracts/ticket.ts';
import { TaskCreatedV1, TaskReminderDueV1, TaskUpdatedV1 } from './contracts/task.ts';
import { NoteCreatedV1, NoteDeletedV1 } from './contracts/note.ts';
import { NotificationCreatedV1 } from './contracts/notification.ts';
import { BulkJobUpdatedV1 } from './contracts/bulk.ts';
import { PhoneSessionUpdatedV1 } from './contracts/phone.ts';
import { ContactCreatedV1, ContactUpdatedV1 } from './contracts/contact.ts';
import { MEDIA_MESSAGE_TYPES } from '../shared/media/media.rules.ts';

/**
 * The one event catalogue. Read by the publisher (validation), the local bus (pattern matching,
 * scripts/local/bus.ts) and the CDK events stack (EventBridge rules -> SQS -> Lambda), so the
 * two runtimes cannot drift.
 */
export const EVENT_SOURCE = 'chorus';

export const EVENTS = {
  'message.received': { version: 1, properties: MessageReceivedV1 },
  'message.sent': { version: 1, properties: MessageSentV1 },
  'message.status_updated': { version: 1, properties: MessageStatusUpdatedV1 },
  'message.updated': { version: 1, properties: MessageUpdatedV1 },
  'chat.read': { version: 1, properties: ChatReadV1 },
  'chat.updated': { version: 1, properties: ChatUpdatedV1 },
  'ticket.created': { version: 1, properties: TicketCreatedV1 },
  'ticket.updated': { version: 1, properties: TicketUpdatedV1 },
  'ticket.closed': { version: 1, properties: TicketClosedV1 },
  'task.created': { version: 1, properties: TaskCreatedV1 },
  'task.updated': { version: 1, properties: TaskUpdatedV1 },
  'task.reminder_due': { version: 1, properties: TaskReminderDueV1 },
  'note.created': { version: 1, properties: NoteCreatedV1 },
  'note.deleted': { version: 1, properties: NoteDeletedV1 },
  'notification.created': { version: 1, properties: NotificationCreatedV1 },
  'bulk_job.updated': { version: 1, properties: BulkJobUpdatedV1 },
  'phone.session_updated': { version: 1, properties: PhoneSessionUpdatedV1 },
  // issue 17: contact triggers (published by shared/contact/contact.ts through the outbox; not pushed on sockets)
  'contact.created': { version: 1, properties: ContactCreatedV1 },
  'contact.updated': { version: 1, properties: ContactUpdatedV1 },
  // issue 17: the reaction trigger (published with the reaction's write, shared/message/reactions.ts; not pushed on sockets: message.updated carries the reaction to the thread)
  'message.reaction': { version: 1, properties: MessageReactionV1 },
} as const satisfies Record<string, { version: number; properties: z.ZodTypeAny }>;

export type EventName = keyof typeof EVENTS;
export type EventProperties<N extends EventName> = z.infer<(typeof EVENTS)[N]['properties']>;

/** Detail schema of an event (`{ properties, metadata }`). */
export const detailSchema = (name: EventName) => detailOf(EVENTS[name].properties);

/** Exact-value matching on fields inside `detail` (EventBridge content filtering): nested objects, arrays of allowed values at the leaves. */
export interface DetailPattern {
  [field: string]: readonly string[] | DetailPattern;
}

/** An EventBridge event pattern (the subset Chorus uses: exact values on source, detail-type and, optionally, fields of detail). */
export interface EventPattern {
  source: string[];
  'detail-type': EventName[];
  detail?: DetailPattern;
}

/**
 * Event subscriptions: EventBridge rule pattern -> SQS queue (with DLQ) -> consumer handler.
 * `handler` is `file#export`, relative to the repo root (NodejsFunction entry in AWS, dynamic
 * import locally).
 */
export const SUBSCRIPTIONS = [
  {
    name: 'realtime-fanout',
    description: 'Pushes message, private note, chat, ticket, task and notification events to the org members connected over WebSocket (task events: admins, assignee, creator; notifications: their recipient only; bulk jobs: their creator only; WhatsApp Web session states and QR codes: admins only)',
    pattern: {
      source: [EVENT_SOURCE],
      'detail-type': ['message.received', 'message.sent', 'message.status_updated', 'message.updated', 'chat.read', 'chat.updated', 'ticket.created', 'ticket.updated', 'ticket.closed', 'task.created', 'task.updated', 'task.reminder_due', 'note.created', 'note.deleted', 'notification.created', 'bulk_job.updated', 'phone.session_updated'],
    },
    handler: 'functions/consumers/realtime-fanout.ts#handler',
    maxReceiveCount: 3,
    batchSize: 10,
  },
  {
    name: 'search-indexing',
    description: 'Keeps the search indexes (OpenSearch in AWS, embedded locally) in step with messages, private notes, media, chats, contacts and tickets (issue 14)',
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['ticket.created', 'ticket.updated', 'ticket.closed', 'message.received', 'message.sent', 'message.updated', 'note.created', 'note.deleted', 'chat.updated'] },
    handler: 'functions/consumers/search-indexing.ts#handler',
    maxReceiveCount: 5,
    batchSize: 10,
  },
  {
    name: 'flag-responses',
    description: 'Marks flagged messages answered when a member replies on that number',
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['message.sent'] },
    handler: 'functions/consumers/flag-responses.ts#handler',
    maxReceiveCount: 5,
    batchSize: 10,
  },
  {
    name: 'ticket-first-response',
    description: "Stamps first_response_at on a chat's tickets when a member first answers the customer after the ticket was made",
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['message.sent'] },
    handler: 'functions/consumers/ticket-first-response.ts#handler',
    maxReceiveCount: 5,
    batchSize: 10,
  },
  {
    name: 'media-download',
    description: 'Downloads the file of an inbound image, video, audio, voice, document or sticker message from the Graph API into the media store (with thumbnails of images)',
    // only messages with a file (MEDIA_MESSAGE_TYPES in shared/media/media.rules.ts; the catalogue test keeps them equal):
    // text messages never reach this queue, in AWS (rule content filter) and locally (the bus applies the same pattern)
    pattern: {
      source: [EVENT_SOURCE],
      'detail-type': ['message.received'],
      detail: { properties: { message: { message_type: [...MEDIA_MESSAGE_TYPES] } } },
    },
    handler: 'functions/consumers/media-download.ts#handler',
    maxReceiveCount: 5,
    batchSize: 5,
  },
  // --- issue 21: web push ---
  {
    name: 'web-push',
    description: "Web pushes to members' registered devices: a customer message in a chat assigned to them (or unassigned, per preference), a mention, a chat or ticket assigned, a task reminder, a snoozed chat back; guarded per member, respecting mute, per-device switches and quiet hours",
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['message.received', 'notification.created', 'task.reminder_due', 'ticket.created', 'ticket.updated'] },
    handler: 'functions/consumers/web-push.ts#handler',
    maxReceiveCount: 3,
    batchSize: 10,
  },
  // --- issue 20: outbound webhooks (the bus events of EVENT_MAP in shared/webhooks/webhook.rules.ts; a test keeps them equal) ---
  {
    name: 'webhook-dispatch',
    description: "Fans events out to the org's outbound webhook, Zapier, Pabbly and Slack endpoints: one delivery row per subscribed endpoint, idempotent by (event id, endpoint), then a command on webhook-deliveries",
    pattern: {
      source: [EVENT_SOURCE],
      'detail-type': ['message.received', 'message.sent', 'message.status_updated', 'chat.updated', 'ticket.created', 'ticket.updated', 'ticket.closed', 'task.created', 'task.updated', 'task.reminder_due', 'notification.created'],
    },
    handler: 'functions/consumers/webhook-dispatch.ts#handler',
    maxReceiveCount: 5,
    batchSize: 10,
  },
  // --- issue 18: AI agent ---
  {
    name: 'ai-agent',
    description: "The AI agent: takes up customer text messages (idempotently per message: shared/ai/agent.ts onCustomerMessage) and pauses itself on a chat when a member replies there (message.sent by a human)",
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['message.received', 'message.sent'] },
    handler: 'functions/consumers/ai-agent.ts#handler',
    maxReceiveCount: 5,
    batchSize: 5,
  },
  // --- issue 19: analytics aggregates and the audit log ---
  {
    name: 'analytics-aggregate',
    description: 'Turns messages, closes, assignments and tickets into daily (and today\'s hourly) aggregate rows per org, number, member, label and group, exactly once per event (the counters, the chat\'s analytics state and the event\'s receipt in one transaction)',
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['message.received', 'message.sent', 'chat.updated', 'ticket.created', 'ticket.closed'] },
    handler: 'functions/consumers/analytics-aggregate.ts#handler',
    maxReceiveCount: 5,
    /**
     * 100 with a 1 s batching window (batchingWindowMs): dashboards need no sub-second counts, and
     * a batch's row ADDs are merged, so at 20 messages/s one window costs about what one message
     * did (issue 23: 4.3 counter UpdateItems per message of a hot group with batches of 1-2).
     */
    batchSize: 100,
  },
  {
    name: 'audit-log',
    description: 'Writes an audit-log row (90 days) for the changes people make to chats and tickets: assignments, labels, chat access, ticket status (label, settings, team and phone changes are recorded by their handlers: shared/audit/audit.ts recordAdminAction)',
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['chat.updated', 'ticket.updated', 'ticket.closed'] },
    handler: 'functions/consumers/audit-log.ts#handler',
    maxReceiveCount: 5,
    batchSize: 10,
  },
  // --- issue 17: automation rules (the bus events of RULE_BUS_EVENTS in shared/rules/triggers.rules.ts; a test keeps them equal) ---
  {
    name: 'rules-engine',
    description: 'Evaluates the org’s automation rules on each event (message received/sent, chat created/reopened/assigned/closed, label added/removed, message flagged, ticket created/updated/closed, task created/due, contact created, contact custom property changed, reaction received), and the SLA clocks: loop guard, conditions, idempotent actions through the inbox’s use cases, delayed actions and follow-ups through the scheduler, one log row per evaluation',
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['message.received', 'message.sent', 'chat.updated', 'ticket.created', 'ticket.updated', 'ticket.closed', 'task.created', 'task.reminder_due', 'contact.created', 'contact.updated', 'message.reaction'] },
    handler: 'functions/consumers/rules-engine.ts#handler',
    maxReceiveCount: 5,
    batchSize: 10,
  },
  // --- issue 16: broadcast statistics ---
  {
    name: 'broadcast-stats',
    description: 'Statistics of broadcasts: statuses of their messages (delivered, read, failed with the reason) and customer replies update the recipient and the broadcast’s counters, exactly once (conditional transactions)',
    pattern: { source: [EVENT_SOURCE], 'detail-type': ['message.status_updated', 'message.received'] },
    handler: 'functions/consumers/broadcast-stats.ts#handler',
    maxReceiveCount: 5,
    batchSize: 10,
  },
] as const satisfies ReadonlyArray<{
  name: string;
  description: string;
  pattern: EventPattern;
  handler: string;
  maxReceiveCount: number;
  batchSize: number;
}>;

/**
 * Consumers of the table's DynamoDB stream (AWS only; locally the runtime's outbox poller does the
 * same work, scripts/local/runtime.ts). `batchSize` records per invocation; a failed batch is retried
 * `retryAttempts` times (bisected), then described in the mapping's on-failure queue.
 */
export const STREAM_CONSUMERS = [
  {
    name: 'outbox-relay',
    description: 'Publishes the domain events of the transactional outbox (INSERTed outbox rows) to EventBridge and deletes their rows, unless the writer already did (events/outbox.ts)',
    handler: 'functions/consumers/outbox-relay.ts#handler',
    batchSize: 100,
    retryAttempts: 10,
  },
] as const;

/**
 * Command queues: work to do, addressed to one consumer (not on the bus). `env` is the variable
 * that carries the queue URL to producers in AWS.
 */
export const COMMAND_QUEUES = [
  {
    name: 'whatsapp-inbound',
    description: 'Signed WhatsApp Cloud API webhook bodies, acknowledged and waiting to be stored',
    handler: 'functions/consumers/whatsapp-inbound.ts#handler',
    env: 'WHATSAPP_INBOUND_QUEUE_URL',
    /**
     * SQS FIFO, one message group per number and chat (shared/whatsapp/cloud/group.ts, issue 23):
     * a hot chat's webhooks never race each other for the chat row and are stored in order, while
     * other chats go on in parallel. In AWS a FIFO event source takes batches of at most 10.
     */
    fifo: true,
    maxReceiveCount: 5,
    /** large batches: messages of a batch are stored in shared transactions (ingestWebhookBatch) */
    batchSize: 50,
    /** consumers polling at once (local runtime) / Lambda maximum concurrency (AWS, min 2) */
    concurrency: 2,
  },
  {
    name: 'whatsapp-outbound',
    description: 'Messages written by members, waiting to be sent through the Graph API',
    handler: 'functions/consumers/whatsapp-outbound.ts#handler',
    env: 'WHATSAPP_OUTBOUND_QUEUE_URL',
    maxReceiveCount: 5,
    batchSize: 5,
    concurrency: 4,
  },
  {
    name: 'wa-web-inbound',
    description: 'What the sockets of linked WhatsApp Web numbers received (messages, acks, reactions, edits, deletes), normalized by the session worker and waiting to be stored (whatsapp-protocols.md §B.11)',
    handler: 'functions/consumers/wa-web-inbound.ts#handler',
    env: 'WA_WEB_INBOUND_QUEUE_URL',
    /**
     * SQS FIFO, one message group per number and chat (inbound-queue.ts inboundGroupId, issue 23
     * item 5): a hot group's records are stored one at a time and in order, other chats in parallel.
     */
    fifo: true,
    maxReceiveCount: 5,
    /** one record is one chat's events of one socket event (already many messages at times) */
    batchSize: 10,
    concurrency: 2,
  },
  {
    name: 'contact-sightings',
    description: 'What inbound messages told about their senders (new to a chat, renamed, first through a number, not seen for a while), waiting to create or refresh their contacts off the ingest path',
    handler: 'functions/consumers/contact-sightings.ts#handler',
    env: 'CONTACT_SIGHTINGS_QUEUE_URL',
    maxReceiveCount: 5,
    /**
     * large batches with SQS's batching window (batchingWindowMs): a contact may be a second late,
     * and a batch's sightings share one BatchGet (touchContacts)
     */
    batchSize: 50,
    concurrency: 1,
  },
  {
    name: 'task-reminders',
    description: 'Task reminder wake-ups put here by the scheduler (EventBridge Scheduler in AWS) when remind_at comes',
    handler: 'functions/consumers/task-reminders.ts#handler',
    env: 'TASK_REMINDERS_QUEUE_URL',
    maxReceiveCount: 5,
    batchSize: 10,
    concurrency: 2,
  },
  {
    name: 'chat-snooze',
    description: 'Snooze wake-ups put here by the scheduler (EventBridge Scheduler in AWS) when snooze_until comes',
    handler: 'functions/consumers/chat-snooze.ts#handler',
    env: 'CHAT_SNOOZE_QUEUE_URL',
    maxReceiveCount: 5,
    batchSize: 10,
    concurrency: 2,
  },
  {
    name: 'chat-bulk',
    description: 'Steps of bulk jobs on chats (issue 4 part 11): read a filter into the job, then apply the action to up to 200 chats and enqueue the next step',
    handler: 'functions/consumers/chat-bulk.ts#handler',
    env: 'CHAT_BULK_QUEUE_URL',
    maxReceiveCount: 5,
    /** one step per invocation: a step is up to 200 chat writes */
    batchSize: 1,
    concurrency: 2,
  },
  // --- issue 20: outbound webhooks ---
  {
    name: 'webhook-deliveries',
    description: 'Attempts of outbound webhook deliveries (first attempts from webhook-dispatch, retries put here by the scheduler, replays and test events by admins): claim, sign (Standard Webhooks), send through the SSRF guard, record',
    handler: 'functions/consumers/webhook-deliveries.ts#handler',
    env: 'WEBHOOK_DELIVERIES_QUEUE_URL',
    maxReceiveCount: 5,
    batchSize: 10,
    /** sends are network-bound: many at once */
    concurrency: 8,
  },
  // --- issue 18: AI agent ---
  {
    name: 'ai-replies',
    description: "The AI agent's replies that wait for the org's response delay, put here by the scheduler (EventBridge Scheduler in AWS) when they are due: prepared and sent unless the chat was taken over meanwhile",
    handler: 'functions/consumers/ai-replies.ts#handler',
    env: 'AI_REPLIES_QUEUE_URL',
    maxReceiveCount: 5,
    batchSize: 5,
    concurrency: 2,
  },
  // --- issue 17: automation rules ---
  {
    name: 'rule-actions',
    description: 'Wake-ups of delayed rule actions, follow-up steps and “no reply within N minutes” timers, put here by the scheduler (EventBridge Scheduler in AWS); stale ones (cancelled by a reply) are ignored',
    handler: 'functions/consumers/rule-actions.ts#handler',
    env: 'RULE_ACTIONS_QUEUE_URL',
    maxReceiveCount: 5,
    batchSize: 10,
    concurrency: 2,
  },
  // --- issue 16 (part A): scheduled messages ---
  {
    name: 'scheduled-messages',
    description: 'Wake-ups of scheduled messages, put here by the scheduler (EventBridge Scheduler in AWS) when an occurrence is due: claimed once per occurrence, sent as the member who scheduled it',
    handler: 'functions/consumers/scheduled-messages.ts#handler',
    env: 'SCHEDULED_MESSAGES_QUEUE_URL',
    maxReceiveCount: 5,
    batchSize: 10,
    concurrency: 2,
  },
  // --- issue 16: broadcasts ---
  {
    name: 'broadcasts',
    description: 'Steps of the broadcast engine (shared/broadcast/broadcast.ts runBroadcastStep): send to the next recipients, paced per number, for up to one step budget, then enqueue the next step; scheduled starts and quiet-hours ends are put here by the scheduler (EventBridge Scheduler in AWS)',
    handler: 'functions/consumers/broadcasts.ts#handler',
    env: 'BROADCASTS_QUEUE_URL',
    /** a step is retried after a crash; its claims make a retry safe */
    maxReceiveCount: 10,
    /** one step per invocation: a step sends for up to BROADCAST_STEP_BUDGET_MS */
    batchSize: 1,
    concurrency: 2,
  },
] as const;

/**
 * Command queues consumed by a long-lived worker instead of a Lambda (whatsapp-protocols.md §B.11):
 * SQS FIFO in AWS (MessageGroupId = the number, so one number's commands keep their order), read
 * by the ECS service named in `worker`; locally the runtime's queue hands them to its in-process
 * worker. `env` carries the queue URL to producers and to the worker.
 */
export const WORKER_QUEUES = [
  {
    name: 'wa-web-commands',
    description: 'Commands for linked WhatsApp Web numbers (send, edit, delete, react), one ordered group per number, consumed by the session worker that holds the number',
    worker: 'wa-web-session',
    env: 'WA_WEB_COMMANDS_QUEUE_URL',
    fifo: true,
    /** a command for a number another worker holds is handed back (not an error), so allow many receives */
    maxReceiveCount: 10,
    batchSize: 1,
  },
] as const;

export type CommandQueueName = (typeof COMMAND_QUEUES)[number]['name'] | (typeof WORKER_QUEUES)[number]['name'];

type AnyQueue = (typeof COMMAND_QUEUES)[number] | (typeof WORKER_QUEUES)[number];
/** The environment variables that carry queue URLs to producers (shared/config.ts reads them). */
export type QueueUrlEnv = AnyQueue['env'];
/** Queue name -> the variable carrying its URL, for every queue producers send to (shared/ports/commands.ts). */
export const QUEUE_URL_ENV = Object.fromEntries([...COMMAND_QUEUES, ...WORKER_QUEUES].map((q) => [q.name, q.env])) as { [Q in AnyQueue as Q['name']]: Q['env'] };

/** Does an event match a pattern? Same semantics EventBridge applies to these exact-value patterns. */
/**
 * The batching window (ms) of a queue's consumer: SQS's MaximumBatchingWindowInSeconds on the
 * Lambda event source, which AWS requires for batches above 10 records (standard queues only; a
 * FIFO event source takes at most 10 records and no window). Read by the CDK consumer construct
 * (infra/constructs/queue-consumer.ts) and the local queue (scripts/local/queue.ts), so both wait
 * the same: a background consumer given a large batch (analytics-aggregate: 100) gathers a
 * second of events into one invocation instead of paying its per-batch reads and writes per event.
 * @returns 1000 for a standard queue with `batchSize` > 10, else 0 (deliver at once)
 */
export function batchingWindowMs(batchSize: number, fifo = false): number {
  return !fifo && batchSize > 10 ? 1000 : 0;
}

export function matchesPattern(pattern: EventPattern, event: { source: string; 'detail-type': string; detail?: unknown }): boolean {
  return pattern.source.includes(event.source) && (pattern['detail-type'] as string[]).includes(event['detail-type']) && (!pattern.detail || matchesDetail(pattern.detail, event.detail));
}

function matchesDetail(p: DetailPattern, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(p).every(([k, want]) => {
    const v = (value as Record<string, unknown>)[k];
    return Array.isArray(want) ? want.includes(v as string) : matchesDetail(want as DetailPattern, v);
  });
}
