import { httpHandler } from '../../lib/http.ts';
import { MessageParams } from './params.ts';
import { FlagInput, setMessageFlag } from '../../../shared/message/message-actions.ts';

/** PUT /api/orgs/{org_id}/chats/{chat_id}/messages/{unique_id}/flag `{ flag_status: true | false | null }` -> `{ message, chat }`. */
export const handler = httpHandler({ params: MessageParams, body: FlagInput }, async ({ actor, params, body }) => ({ body: await setMessageFlag(actor, params.chat_id, params.unique_id, body.flag_status) }));
