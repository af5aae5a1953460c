import { apiHandler } from '../../lib/api-key.ts';
import { V1 } from './contract.ts';
import { listTickets as listTicketsUseCase } from '../../../shared/ticket/ticket-list.ts';
import { createTicket as createTicketUseCase, getTicket as getTicketUseCase, updateTicket as updateTicketUseCase } from '../../../shared/ticket/ticket.ts';
import { createTask as createTaskUseCase, listTasks as listTasksUseCase, updateTask as updateTaskUseCase } from '../../../shared/task/task.ts';
import { searchForKey } from '../../../shared/search-api/search-api.ts';
import { listContacts as listContactsUseCase } from '../../../shared/contact/contact.ts';

/** Public API: tickets, tasks and contacts (issue 20). Same use cases as functions/http/tickets|tasks/*. */

/** GET /v1/orgs/{org_id}/tickets -> `{ tickets, cursor }` */
export const listTickets = apiHandler(V1.listTickets, async ({ actor, query }) => ({ body: await listTicketsUseCase(actor, query) }));
/** POST /v1/orgs/{org_id}/tickets -> 201 `{ ticket, message }` */
export const createTicket = apiHandler(V1.createTicket, async ({ actor, body }) => ({ status: 201, body: await createTicketUseCase(actor, body) }));
/** GET /v1/orgs/{org_id}/tickets/{ticket_id} -> `{ ticket, messages }` */
export const getTicket = apiHandler(V1.getTicket, async ({ actor, params }) => ({ body: await getTicketUseCase(actor, params.ticket_id) }));
/** PATCH /v1/orgs/{org_id}/tickets/{ticket_id} -> `{ ticket }` */
export const updateTicket = apiHandler(V1.updateTicket, async ({ actor, params, body }) => ({ body: { ticket: await updateTicketUseCase(actor, params.ticket_id, body) } }));

/** GET /v1/orgs/{org_id}/tasks -> `{ tasks, cursor }` (all tasks of the org) */
export const listTasks = apiHandler(V1.listTasks, async ({ actor, query }) => ({ body: await listTasksUseCase(actor, query) }));
/** POST /v1/orgs/{org_id}/tasks -> 201 `{ task }`; no `assignee` = Unassigned (the key is not a member) */
export const createTask = apiHandler(V1.createTask, async ({ actor, body }) => ({ status: 201, body: { task: await createTaskUseCase(actor, { ...body, assignee: body.assignee === undefined ? null : body.assignee }) } }));
/** PUT /v1/orgs/{org_id}/tasks/{task_id} -> `{ task }` */
export const updateTask = apiHandler(V1.updateTask, async ({ actor, params, body }) => ({ body: { task: await updateTaskUseCase(actor, params.task_id, body) } }));

/** GET /v1/orgs/{org_id}/contacts -> `{ contacts, cursor }` */
export const listContacts = apiHandler(V1.listContacts, async ({ actor, query }) => ({ body: await listContactsUseCase(actor, query) }));

/** GET /v1/orgs/{org_id}/search?q&kind&… -> `{ results: { [kind]: { items, cursor } } }` (issue 14's search, same guard), only the kinds the key's other scopes may read (issue 42) */
export const search = apiHandler(V1.search, async ({ actor, query, apiKey }) => ({ body: await searchForKey(actor, apiKey.scopes, query) }));
