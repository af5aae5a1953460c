import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { refreshMessage } from '../../../shared/message/message-actions.ts';

/** POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/refresh -> `{ message }` with its delivery_info re-read. */
export const handler = httpHandler({ params: MessageParams }, async ({ actor, params }) => ({ body: { message: await refreshMessage(actor, params.chat_id, params.unique_id) } }));
