import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { PinInput, setMessagePin } from '../../../shared/message/message-actions.ts';

/** PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/pin `{ pin, duration: 24h | 7d | 30d }` -> `{ message, chat }`. */
export const handler = httpHandler({ params: MessageParams, body: PinInput }, async ({ actor, params, body }) => ({ body: await setMessagePin(actor, params.chat_id, params.unique_id, body.pin, body.duration) }));
