import { httpHandler } from '../../lib/http.ts';
import { ChatParams } from './params.ts';
import { ActivePhoneInput } from '../../../shared/chat/chat.schemas.ts';
import { setActivePhone } from '../../../shared/chat/chat-workflow.ts';

/** PUT /api/orgs/{org_id}/chats/{chat_id}/active-phone `{ phone }` -> `{ chat }` (spec §7 active-phone update). */
export const handler = httpHandler({ params: ChatParams, body: ActivePhoneInput }, async ({ actor, params, body }) => ({ body: { chat: await setActivePhone(actor, params.chat_id, body.phone) } }));
