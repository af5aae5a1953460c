import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { json } from '../../lib/http.ts';
import * as chats from './chats.ts';
import * as messages from './messages.ts';
import * as work from './work.ts';
import * as hooks from './hooks.ts';
import { V1, type V1Name } from './contract.ts';

/**
 * The one Lambda of the public API's `/v1/orgs/…` routes (issue 20): API Gateway routes each
 * registry route here and this picks the route's handler by `routeKey` (the contract's method and
 * path). One function instead of one per route keeps the API stack small and the handlers warm;
 * each route keeps its own scope, schemas and use case (chats.ts, messages.ts, work.ts).
 */
const HANDLERS: Record<V1Name, (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>> = {
  listChats: chats.listChats,
  getChat: chats.getChat,
  assignChats: chats.assignChats,
  labelChats: chats.labelChats,
  closeChats: chats.closeChats,
  snoozeChats: chats.snoozeChats,
  listMessages: messages.listMessages,
  sendMessage: messages.sendMessage,
  listTickets: work.listTickets,
  createTicket: work.createTicket,
  getTicket: work.getTicket,
  updateTicket: work.updateTicket,
  listTasks: work.listTasks,
  createTask: work.createTask,
  updateTask: work.updateTask,
  listContacts: work.listContacts,
  search: work.search,
  subscribeHook: hooks.subscribeHook,
  unsubscribeHook: hooks.unsubscribeHook,
  hookSamples: hooks.hookSamples,
} as never;

const BY_ROUTE = new Map(Object.entries(V1).map(([name, r]) => [`${r.method} ${r.path}`, HANDLERS[name as V1Name]]));

/** Every `/v1/orgs/…` route of functions/routes.ts. Unknown route keys answer 404. */
export async function handler(event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyResultV2> {
  const h = BY_ROUTE.get(event.routeKey);
  if (!h) return json(404, { error: { code: 'route.not_found', message: 'No such API route.' } });
  return h(event, context);
}
