import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { searchForKey } from '../../../shared/search-api/search-api.ts';
import { SearchQuery } from '../../../shared/search-api/search.schemas.ts';
import { z, type ZodRawShape } from 'zod';
import type { Actor } from '../../../shared/auth/actor.ts';
import { isAppError } from '../../../shared/errors.ts';
import { chatGuard } from '../../../shared/access/guard.ts';
import { hasScope, MCP_TOOL_SCOPES, type McpToolName } from '../../../shared/apikey/api-key.rules.ts';
import type { ApiKeyPrincipal } from '../../../shared/apikey/api-key.ts';
import { getChat, listChats } from '../../../shared/chat/chat.ts';
import { assignChats, closeChats, labelChats } from '../../../shared/chat/chat-workflow.ts';
import { AssignChatsInput, ChatLabelsInput, ListChatsQuery } from '../../../shared/chat/chat.schemas.ts';
import { listMessages } from '../../../shared/message/message.ts';
import { MessageBody } from '../../../shared/message/message.schemas.ts';
import { sendMessage } from '../../../shared/inbox/send.ts';
import { createTicket, updateTicket } from '../../../shared/ticket/ticket.ts';
import { listTickets } from '../../../shared/ticket/ticket-list.ts';
import { CreateTicketInput, ListTicketsQuery, UpdateTicketInput } from '../../../shared/ticket/ticket.schemas.ts';
import { createTask } from '../../../shared/task/task.ts';
import { CreateTaskInput } from '../../../shared/task/task.schemas.ts';
import { listContacts } from '../../../shared/contact/contact.ts';

/**
 * The MCP server of a workspace (issue 20, @modelcontextprotocol/sdk): tools over the same domain
 * functions as the web and public APIs, run as the org-level API actor of the key. Every tool names
 * the scopes it needs; a key without them gets a tool error (`isError`) naming the missing scope and
 * nothing is read or changed. Tool errors of the domain (404, 403, 400…) come back as tool errors
 * with the API's message. Served over streamable HTTP at `/mcp` (mcp.ts) and over stdio by
 * `npm run mcp` (scripts/mcp.ts, which bridges to `/mcp`).
 *
 * `search_messages` runs the global search (issue 14, shared/search/search.ts) over messages, notes
 * and media; `search_tickets` filters tickets by subject.
 */

export { MCP_TOOL_SCOPES, type McpToolName };

type ToolResult = { content: Array<{ type: 'text'; text: string }>; isError?: boolean };
const ok = (data: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(data) }] });
const fail = (text: string): ToolResult => ({ content: [{ type: 'text', text }], isError: true });

const innerShape = (s: z.ZodTypeAny): ZodRawShape => {
  let cur = s;
  while (cur instanceof z.ZodEffects) cur = cur.innerType();
  return (cur as z.AnyZodObject).shape;
};

/** A fresh server for one request (stateless streamable HTTP) acting as `actor` with `key`'s scopes. */
export function createMcpServer(actor: Actor, key: Pick<ApiKeyPrincipal, 'scopes'>): McpServer {
  const server = new McpServer({ name: 'chorus', version: '1.0.0' }, { capabilities: { tools: {} } });

  const tool = <S extends ZodRawShape>(name: McpToolName, description: string, shape: S, run: (args: z.objectOutputType<S, z.ZodTypeAny>) => Promise<unknown>) => {
    server.registerTool(name, { description: `${description} Needs scope ${MCP_TOOL_SCOPES[name].join(' and ')}.`, inputSchema: shape }, (async (args: z.objectOutputType<S, z.ZodTypeAny>) => {
      const missing = MCP_TOOL_SCOPES[name].filter((s) => !hasScope(key.scopes, s));
      if (missing.length) return fail(`This API key lacks the scope ${missing.join(', ')} (403 api_key.scope_missing).`);
      try {
        return ok(await run(args));
      } catch (e) {
        if (isAppError(e)) return fail(`${e.status} ${e.code}: ${e.message}`);
        throw e;
      }
    }) as never);
  };

  const listShape = innerShape(ListChatsQuery);
  tool('list_chats', 'List chats of the workspace, newest activity first (filters: state, unread, assignee, label_id, phone, type; paged by cursor).', listShape, async (args) =>
    listChats(actor, ListChatsQuery.parse(args)),
  );
  tool('read_chat', 'Read a chat and its latest messages (newest first).', { chat_id: z.string().min(1), limit: z.number().int().min(1).max(100).default(20) }, async ({ chat_id, limit }) => {
    const chat = await getChat(actor, chat_id);
    const { messages } = await listMessages(actor, chat_id, { limit } as never);
    return { chat, messages };
  });
  tool('send_message', 'Send a text message to a chat (queued for WhatsApp).', { chat_id: z.string().min(1), body: MessageBody }, async ({ chat_id, body }) => {
    const guard = await chatGuard(actor);
    return { message: guard.viewMessage(await sendMessage(actor, chat_id, { body })) };
  });
  tool('assign_chat', 'Assign chats to a member (email), or unassign with null.', AssignChatsInput.shape, async (args) => {
    const input = AssignChatsInput.parse(args);
    return assignChats(actor, input.chat_ids, input.assigned_to);
  });
  tool('label_chat', 'Set (label_ids) or add/remove labels of chats.', innerShape(ChatLabelsInput), async (args) => {
    const input = ChatLabelsInput.parse(args);
    return labelChats(actor, input.chat_ids, input);
  });
  tool('close_chat', 'Close (is_closed true) or reopen chats.', { chat_ids: AssignChatsInput.shape.chat_ids, is_closed: z.boolean().default(true) }, async ({ chat_ids, is_closed }) =>
    closeChats(actor, chat_ids, is_closed, 'all'),
  );
  tool(
    'search_messages',
    'Search messages (and private notes and media captions) of every chat: words, prefixes, one typo. Optional chat number (phone_id), sender, epoch-ms from/to. Hits carry chat_id, unique_id and a snippet with the match in <mark>.',
    { q: z.string().trim().min(1).max(200), phone_id: z.string().min(1).max(100).optional(), sender: z.string().trim().min(1).max(200).optional(), from: z.number().int().min(0).optional(), to: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(100).default(20) },
    async (args) => {
      const r = await searchForKey(actor, key.scopes, SearchQuery.parse({ ...args, kind: 'all' }));
      return { messages: r.results.messages, notes: r.results.notes, media: r.results.media };
    },
  );
  tool('search_tickets', 'Search tickets by subject (the search index), with optional status filter.', { q: z.string().trim().min(1).max(100), status: ListTicketsQuery._def.schema.shape.status, limit: z.number().int().min(1).max(100).default(20) }, async (args) =>
    listTickets(actor, ListTicketsQuery.parse(args)),
  );
  tool('create_ticket', 'Create a ticket from a message of a chat (quoted_message_id = the message unique_id).', CreateTicketInput.shape, async (args) => createTicket(actor, CreateTicketInput.parse(args)));
  tool('update_ticket', 'Update a ticket: subject, status, priority, assignee, due_date or labels.', { ticket_id: z.string().min(1), ...innerShape(UpdateTicketInput) }, async ({ ticket_id, ...rest }) => ({
    ticket: await updateTicket(actor, ticket_id as string, UpdateTicketInput.parse(rest)),
  }));
  tool('create_task', 'Create a task (optionally linked to a chat, message or ticket). Without assignee it is Unassigned.', CreateTaskInput.shape, async (args) => {
    const input = CreateTaskInput.parse(args);
    return { task: await createTask(actor, { ...input, assignee: (args as { assignee?: string | null }).assignee === undefined ? null : input.assignee }) };
  });
  tool('list_contacts', 'List contacts of the workspace (paged by cursor).', { limit: z.number().int().min(1).max(1000).default(100), cursor: z.string().min(1).optional() }, async ({ limit, cursor }) =>
    listContacts(actor, { limit, cursor }),
  );
  return server;
}
