import { apiHandler } from '../../lib/api-key.ts';
import { V1 } from './contract.ts';
import { listMessages as listMessagesUseCase } from '../../../shared/message/message.ts';
import { sendMessage as send } from '../../../shared/inbox/send.ts';

/** Public API: messages (issue 20). Same use cases as functions/http/messages/*. */

/** GET /v1/orgs/{org_id}/chats/{chat_id}/messages -> `{ messages, cursor }` */
export const listMessages = apiHandler(V1.listMessages, async ({ actor, params, query }) => ({ body: await listMessagesUseCase(actor, params.chat_id, query) }));

/** POST /v1/orgs/{org_id}/chats/{chat_id}/messages -> 201 `{ message }` */
export const sendMessage = apiHandler(V1.sendMessage, async ({ actor, guard, params, body }) => ({ status: 201, body: { message: guard.viewMessage(await send(actor, params.chat_id, body)) } }));
