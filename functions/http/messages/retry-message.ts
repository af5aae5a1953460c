import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { retryMessage } from '../../../shared/message/message-actions.ts';

/**
 * POST /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/retry -> `{ message }`: one of our
 * messages that failed or "may not have been sent" goes back on the queue (issue 23 item 4).
 * 400 message.retry_refused for any other message.
 */
export const handler = httpHandler({ params: MessageParams }, async ({ actor, params }) => ({ body: { message: await retryMessage(actor, params.chat_id, params.unique_id) } }));
