import { z, type ZodTypeAny } from 'zod';
import type { ApiScope } from '../../../shared/apikey/api-key.rules.ts';
import { OrgParams, ChatParams } from '../chats/params.ts';
import { TicketParams } from '../tickets/params.ts';
import { TaskParams } from '../tasks/params.ts';
import { AssignChatsInput, Chat, ChatLabelsInput, CloseChatsInput, ListChatsQuery, SnoozeChatsInput } from '../../../shared/chat/chat.schemas.ts';
import { Message, PageQuery, SendMessageInput } from '../../../shared/message/message.schemas.ts';
import { CreateTicketInput, ListTicketsQuery, Ticket, TicketMessage, UpdateTicketInput } from '../../../shared/ticket/ticket.schemas.ts';
import { CreateTaskInput, ListTasksQuery, Task, UpdateTaskInput } from '../../../shared/task/task.schemas.ts';
import { Contact } from '../../../shared/contact/contact.ts';
import { SearchQuery, SearchResponse } from '../../../shared/search-api/search.schemas.ts';
import { RestHookInput } from '../../../shared/webhooks/webhook.schemas.ts';
import { PUBLIC_EVENTS } from '../../../shared/webhooks/webhook.rules.ts';

/**
 * The public REST API's contract (issue 20): per `/v1` route its scope, zod schemas of path, query,
 * body and answer, and its documentation. The handlers (functions/http/v1/*.ts) validate with these
 * very schemas and the OpenAPI 3.1 document (openapi-doc.ts) is generated from them and from the
 * route registry (functions/routes.ts), so the three cannot drift; tests/integration/openapi.test.ts
 * checks that every `/v1` route of the registry is documented.
 * Request and answer shapes are the web API's (the same domain functions answer both).
 */

export interface PublicRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  scope: ApiScope;
  summary: string;
  description?: string;
  tag: string;
  params?: ZodTypeAny;
  query?: ZodTypeAny;
  body?: ZodTypeAny;
  response: ZodTypeAny;
  status?: 200 | 201;
}

const Failed = z.array(z.object({ chat_id: z.string(), reason: z.string() }));
export const ChatBatchResult = z.object({ chats: z.array(Chat), failed: Failed });
const Cursor = z.string().nullable();

/** Contacts page query (1..1000, default 100). */
export const ContactsQuery = z.object({
  limit: z.coerce.number({ invalid_type_error: 'must be a number' }).int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(100),
  cursor: z.string().min(1).max(2048).optional(),
});

/** Tasks of the API: an org-level key has no "mine", so scope defaults to all. */
export const V1ListTasksQuery = ListTasksQuery.extend({ scope: z.enum(['all'], { errorMap: () => ({ message: 'must be all' }) }).default('all') });

const HookParams = OrgParams.extend({ endpoint_id: z.string().min(1, 'is required').max(64, 'is too long') });
const HookSampleParams = OrgParams.extend({ event: z.enum(PUBLIC_EVENTS, { errorMap: () => ({ message: `must be one of ${PUBLIC_EVENTS.join(', ')}` }) }) });

export const V1 = {
  listChats: {
    method: 'GET', path: '/v1/orgs/{org_id}/chats', scope: 'chats:read', tag: 'Chats', summary: 'List chats',
    description: 'Chats of the org, newest activity first, with the inbox filters (state, unread, assignee, label_id, phone, type). Paged by `cursor`.',
    params: OrgParams, query: ListChatsQuery, response: z.object({ chats: z.array(Chat), cursor: Cursor }),
  },
  getChat: { method: 'GET', path: '/v1/orgs/{org_id}/chats/{chat_id}', scope: 'chats:read', tag: 'Chats', summary: 'Read a chat', params: ChatParams, response: z.object({ chat: Chat }) },
  assignChats: {
    method: 'POST', path: '/v1/orgs/{org_id}/chats/assign', scope: 'chats:write', tag: 'Chats', summary: 'Assign chats',
    description: '`assigned_to` is a member email, or null to unassign. Chats that could not change are listed in `failed`.',
    params: OrgParams, body: AssignChatsInput, response: ChatBatchResult,
  },
  labelChats: { method: 'POST', path: '/v1/orgs/{org_id}/chats/labels', scope: 'chats:write', tag: 'Chats', summary: 'Label chats', description: '`label_ids` sets the labels; or `add` / `remove` some.', params: OrgParams, body: ChatLabelsInput, response: ChatBatchResult },
  closeChats: { method: 'POST', path: '/v1/orgs/{org_id}/chats/close', scope: 'chats:write', tag: 'Chats', summary: 'Close or reopen chats', params: OrgParams, body: CloseChatsInput, response: ChatBatchResult },
  snoozeChats: { method: 'POST', path: '/v1/orgs/{org_id}/chats/snooze', scope: 'chats:write', tag: 'Chats', summary: 'Snooze chats', description: '`snooze_until` is epoch ms, or null to wake the chats now.', params: OrgParams, body: SnoozeChatsInput, response: ChatBatchResult },
  listMessages: {
    method: 'GET', path: '/v1/orgs/{org_id}/chats/{chat_id}/messages', scope: 'messages:read', tag: 'Messages', summary: 'List messages of a chat',
    description: 'Newest first; paged by `cursor`.', params: ChatParams, query: PageQuery, response: z.object({ messages: z.array(Message), cursor: Cursor }),
  },
  sendMessage: {
    method: 'POST', path: '/v1/orgs/{org_id}/chats/{chat_id}/messages', scope: 'messages:write', tag: 'Messages', summary: 'Send a message',
    description: 'Text `{ body }`, or media uploaded before (`{ media: { key, filename, mimetype }, caption? }`). Answers 201 with the stored message (ack 0, queued for WhatsApp). Templates are not in the product yet.',
    params: ChatParams, body: SendMessageInput, response: z.object({ message: Message }), status: 201,
  },
  listTickets: {
    method: 'GET', path: '/v1/orgs/{org_id}/tickets', scope: 'tickets:read', tag: 'Tickets', summary: 'List or search tickets',
    description: 'Filters combine; `q` searches subjects (the search index).', params: OrgParams, query: ListTicketsQuery, response: z.object({ tickets: z.array(Ticket), cursor: Cursor }),
  },
  createTicket: {
    method: 'POST', path: '/v1/orgs/{org_id}/tickets', scope: 'tickets:write', tag: 'Tickets', summary: 'Create a ticket from a message',
    params: OrgParams, body: CreateTicketInput, response: z.object({ ticket: Ticket, message: Message }), status: 201,
  },
  getTicket: { method: 'GET', path: '/v1/orgs/{org_id}/tickets/{ticket_id}', scope: 'tickets:read', tag: 'Tickets', summary: 'Read a ticket', params: TicketParams, response: z.object({ ticket: Ticket, messages: z.array(TicketMessage) }) },
  updateTicket: { method: 'PATCH', path: '/v1/orgs/{org_id}/tickets/{ticket_id}', scope: 'tickets:write', tag: 'Tickets', summary: 'Update a ticket', params: TicketParams, body: UpdateTicketInput, response: z.object({ ticket: Ticket }) },
  listTasks: { method: 'GET', path: '/v1/orgs/{org_id}/tasks', scope: 'tasks:read', tag: 'Tasks', summary: 'List tasks', params: OrgParams, query: V1ListTasksQuery, response: z.object({ tasks: z.array(Task), cursor: Cursor }) },
  createTask: {
    method: 'POST', path: '/v1/orgs/{org_id}/tasks', scope: 'tasks:write', tag: 'Tasks', summary: 'Create a task',
    description: 'Without `assignee` the task is Unassigned (an API key is not a member).', params: OrgParams, body: CreateTaskInput, response: z.object({ task: Task }), status: 201,
  },
  updateTask: { method: 'PUT', path: '/v1/orgs/{org_id}/tasks/{task_id}', scope: 'tasks:write', tag: 'Tasks', summary: 'Update a task (the whole editable task)', params: TaskParams, body: UpdateTaskInput, response: z.object({ task: Task }) },
  listContacts: { method: 'GET', path: '/v1/orgs/{org_id}/contacts', scope: 'contacts:read', tag: 'Contacts', summary: 'List contacts', params: OrgParams, query: ContactsQuery, response: z.object({ contacts: z.array(Contact), cursor: Cursor }) },
  search: {
    method: 'GET', path: '/v1/orgs/{org_id}/search', scope: 'search:read', tag: 'Search', summary: 'Search chats, messages, notes, tickets, contacts and media',
    description: 'The global search (words, prefixes, one typo; accents and case folded), over only the kinds the key\'s other scopes may read: chats need chats:read; messages, notes and media messages:read; tickets tickets:read; contacts contacts:read (a kind it may not read: 403 api_key.scope_missing). `kind` limits it to one kind; up to 500 hits per kind per page, with a `cursor` per kind (send it back with that kind). `from`/`to` are epoch ms. Snippets carry about 40 characters either side of the match, marked with <mark>.',
    params: OrgParams, query: SearchQuery, response: SearchResponse,
  },
  // REST hooks for Zapier and Pabbly (issue 20 item 5): the same domain functions as /api/orgs/{org_id}/hooks
  subscribeHook: {
    method: 'POST', path: '/v1/orgs/{org_id}/hooks', scope: 'webhooks:write', tag: 'REST hooks', summary: 'Subscribe a REST hook (Zapier, Pabbly)',
    description: 'Creates an endpoint of kind `source` that receives `event`, signed per Standard Webhooks. Answers its id (use it to unsubscribe).',
    params: OrgParams, body: RestHookInput, response: z.object({ id: z.string() }).passthrough(), status: 201,
  },
  unsubscribeHook: {
    method: 'DELETE', path: '/v1/orgs/{org_id}/hooks/{endpoint_id}', scope: 'webhooks:write', tag: 'REST hooks', summary: 'Unsubscribe a REST hook',
    params: HookParams, response: z.object({ deleted: z.string() }),
  },
  hookSamples: {
    method: 'GET', path: '/v1/orgs/{org_id}/hooks/samples/{event}', scope: 'webhooks:read', tag: 'REST hooks', summary: "A trigger's sample payloads",
    description: "A list with one sample payload of the event (Zapier's performList shape).", params: HookSampleParams, response: z.array(z.record(z.unknown())),
  },
} as const satisfies Record<string, PublicRoute>;

export type V1Name = keyof typeof V1;
