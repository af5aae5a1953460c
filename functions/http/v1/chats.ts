import { apiHandler } from '../../lib/api-key.ts';
import { V1 } from './contract.ts';
import { listChats as listChatsUseCase, getChat as getChatUseCase } from '../../../shared/chat/chat.ts';
import { assignChats as assign, closeChats as close, labelChats as label, snoozeChats as snooze } from '../../../shared/chat/chat-workflow.ts';

/** Public API: chats (issue 20). Same use cases as functions/http/chats/*; shapes in contract.ts. */

/** GET /v1/orgs/{org_id}/chats -> `{ chats, cursor }` */
export const listChats = apiHandler(V1.listChats, async ({ actor, query }) => ({ body: await listChatsUseCase(actor, query) }));

/** GET /v1/orgs/{org_id}/chats/{chat_id} -> `{ chat }` */
export const getChat = apiHandler(V1.getChat, async ({ actor, params }) => ({ body: { chat: await getChatUseCase(actor, params.chat_id) } }));

/** POST /v1/orgs/{org_id}/chats/assign -> `{ chats, failed }` */
export const assignChats = apiHandler({ ...V1.assignChats, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ body: await assign(actor, body.chat_ids, body.assigned_to) }));

/** POST /v1/orgs/{org_id}/chats/labels -> `{ chats, failed }` */
export const labelChats = apiHandler({ ...V1.labelChats, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ body: await label(actor, body.chat_ids, body) }));

/** POST /v1/orgs/{org_id}/chats/close -> `{ chats, failed }` */
export const closeChats = apiHandler({ ...V1.closeChats, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ body: await close(actor, body.chat_ids, body.is_closed, body.type) }));

/** POST /v1/orgs/{org_id}/chats/snooze -> `{ chats, failed }` */
export const snoozeChats = apiHandler({ ...V1.snoozeChats, perChat: ['chat_ids'] }, async ({ actor, body }) => ({ body: await snooze(actor, body.chat_ids, body.snooze_until) }));
